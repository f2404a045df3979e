/** A title's analysed words and the candidate run covering some of them, as screening builds both. */
import type { Candidate } from '../../shared/screening/candidates';
import { RunTable } from '../../shared/screening/candidates';
import { TitleContext } from '../../shared/screening/title-context';
import { wordsOfTitle } from '../../shared/screening/title-words';

/**
 * The context of `title` and its candidate whose normalised words, joined by `separator`, are `text` ("hello kitty";
 * a run of Chinese characters is one word a character, so joined by ''). Throws when no candidate covers them.
 */
export function candidateCovering(
  title: string,
  text: string,
  separator = ' ',
): { context: TitleContext; candidate: Candidate } {
  const words = wordsOfTitle(title);
  const context = new TitleContext({ title }, words);
  const candidate = new RunTable().candidatesOf(words).find(
    (c: Candidate) =>
      words
        .slice(c.start, c.end)
        .map((w) => w.norm)
        .join(separator) === text,
  );
  if (candidate === undefined) throw new Error(`no candidate "${text}" in ${title}`);
  return { context, candidate };
}
