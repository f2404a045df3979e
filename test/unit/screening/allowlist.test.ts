/**
 * The allowlist inside the judgement: a conflict with one of the caller's own brands never decides the risk, the TRO
 * hit or the top conflict, and `detail` shows it with `allowlisted: true`. Screened by the real engine over the sample
 * corpus (in-memory stores, loaded by the real ingest).
 */
import { allowlistKeys, brandKey } from '../../../shared/screening/allowlist';
import type { ScreeningResult } from '../../../shared/screening/screen-titles';
import { createInMemoryScreening, type InMemoryScreening } from '../../support/in-memory-screening';

let corpus: InMemoryScreening;
beforeAll(async () => {
  corpus = await createInMemoryScreening();
}, 60_000);

async function screen(title: string, allowlist: string[], detail = true): Promise<ScreeningResult> {
  const { results } = await corpus.screening.screen([{ title }], { detail, allowlist });
  return results[0]!;
}

describe('an account screening its own brand', () => {
  it('raises nothing when its own brand is the only mark, and says why in detail', async () => {
    const plain = await screen('Anker USB C Charger 65W', []);
    expect(plain).toMatchObject({ risk: '高', top_conflict: 'Anker' });

    const own = await screen('Anker USB C Charger 65W', ['ANKER']);
    expect(own).toMatchObject({ risk: '低', tro_hit: false, top_conflict: '', brand_words: [] });
    expect(own.conflicts).toEqual([expect.objectContaining({ mark: 'Anker', allowlisted: true })]);
  });

  it('still raises every other brand in the title, with the risk it carries alone', async () => {
    const out = await screen('Anker power bank Nike running armband', ['Anker']);
    expect(out).toMatchObject({ risk: '高', tro_hit: true, top_conflict: 'Nike' });
    expect(out.brand_words).toEqual(['Nike']);
    expect(out.conflicts!.filter((c) => c.allowlisted).map((c) => c.mark)).toEqual(['Anker']);
    expect(out.conflicts!.filter((c) => !c.allowlisted).map((c) => c.mark)).toEqual(['Nike']);
  });

  it('without detail answers the four fields only', async () => {
    expect(await screen('Soundcore Anker earbuds', ['anker', 'Sound-Core'], false)).toEqual({
      name: 'Soundcore Anker earbuds',
      risk: '低',
      tro_hit: false,
      top_conflict: '',
    });
  });

  it('never affects another account: the same title without the list is screened as before', async () => {
    const [mine, theirs] = await Promise.all([
      screen('Apple iPhone 15 case by Anker', ['Anker']),
      screen('Apple iPhone 15 case by Anker', []),
    ]);
    const { results } = await corpus.screening.screen([{ title: 'Apple iPhone 15 case by Anker' }], { detail: true });
    expect(mine.top_conflict).not.toBe('Anker');
    expect(mine.conflicts!.find((c) => c.mark === 'Anker')?.allowlisted).toBe(true);
    expect(theirs).toEqual(results[0]);
    expect(theirs.conflicts!.map((c) => c.mark)).toContain('Anker');
    expect(theirs.conflicts!.some((c) => c.allowlisted)).toBe(false);
  });
});

describe('brandKey', () => {
  it('one brand whatever its spelling; whole marks only', () => {
    expect(brandKey('Sound-Core®')).toBe(brandKey('soundcore'));
    expect(brandKey('APPLE JACKS')).not.toBe(brandKey('Apple'));
    expect([...allowlistKeys(['Anker', 'ANKER', '  ', '®'])]).toEqual([brandKey('anker')]);
  });
});
