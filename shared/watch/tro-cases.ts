/**
 * The TRO case behind a conflicting mark, for alerts: the TRO list's entry whose brand is the mark's text (the docket
 * job files one entry per mark text of a plaintiff's marks, shared/data-jobs/tro-docket-job.ts) and its newest case
 * number. The list is read once per re-screen run.
 */
import { troBrandKey } from '../marks/tro-csv';
import type { TroStore } from '../ports';

export function troCaseLookup(tro: Pick<TroStore, 'all'>): (mark: string) => Promise<string | undefined> {
  let cases: Promise<Map<string, string>> | undefined;
  return async (mark) => {
    cases ??= tro.all().then(
      (entries) =>
        new Map(
          entries.flatMap((entry) => {
            // Case numbers are kept in the order they were found: the last is the newest.
            const newest = entry.caseNumbers.at(-1);
            return newest ? [[entry.brandKey, newest] as const] : [];
          }),
        ),
    );
    return mark ? (await cases).get(troBrandKey(mark)) : undefined;
  };
}
