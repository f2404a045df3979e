/**
 * The screening service of this process, over the data stores of its config. The engine (lexicons, word tables and
 * the brand-use model: most of the batch-screen function's start-up) loads on the first call that screens, so a
 * request refused before the charge (no key, wrong tier, invalid body, over the work budget) answers without it.
 */
import { loadConfig } from '../config';
import type { ScreeningService } from '../screening/screening-service';
import { checkScreeningWork } from '../screening/screening-work';
import { buildDataStores } from './data-stores';

let processScreening: ScreeningService | undefined;

export function screeningService(): ScreeningService {
  if (processScreening === undefined) {
    const config = loadConfig();
    let engine: Promise<ScreeningService> | undefined;
    const load = () =>
      (engine ??= import('../screening/screening-service').then(({ createScreeningService }) =>
        createScreeningService(buildDataStores(config), {
          refreshMs: config.screening.refreshSeconds * 1000,
          workBudget: config.screening.workBudget,
        }),
      ));
    processScreening = {
      checkWork: (items) => checkScreeningWork(items, config.screening.workBudget),
      screen: async (items, options) => (await load()).screen(items, options),
    };
  }
  return processScreening;
}
