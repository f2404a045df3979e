/** The screening engine of this process, over the data stores of its config. */
import { loadConfig } from '../config';
import { createScreeningService, type ScreeningService } from '../screening/screening-service';
import { buildDataStores } from './data-stores';

let processScreening: ScreeningService | undefined;

export function screeningService(): ScreeningService {
  if (processScreening === undefined) {
    const config = loadConfig();
    processScreening = createScreeningService(buildDataStores(config), {
      refreshMs: config.screening.refreshSeconds * 1000,
      workBudget: config.screening.workBudget,
    });
  }
  return processScreening;
}
