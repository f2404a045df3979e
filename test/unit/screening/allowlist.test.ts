/** The allowlist as a filter on finished results: what is left decides risk, tro_hit and top_conflict. */
import { allowlistKeys, applyAllowlist, brandKey } from '../../../shared/screening/allowlist';
import type { ConflictDetail, ScreeningResult } from '../../../shared/screening/screen-titles';

const conflict = (mark: string, score: number, extra: Partial<ConflictDetail> = {}): ConflictDetail => ({
  mark, serial: `S-${mark}`, nice: '9', is_live: 1, match: 'exact', words: [mark.toLowerCase()], tro: false, score, reason: `"${mark}" exactly; a live registration`, ...extra,
});
const result = (risk: ScreeningResult['risk'], conflicts: ConflictDetail[], troHit = false): ScreeningResult => ({
  name: 'title', risk, tro_hit: troHit, top_conflict: conflicts[0]?.mark ?? '', brand_words: conflicts.flatMap((c) => c.words), conflicts,
});

describe('applyAllowlist', () => {
  it('drops the only conflict: low risk, no top conflict, listed as allowlisted with detail', () => {
    const out = applyAllowlist(result('高', [conflict('Anker', 0.9)]), allowlistKeys(['ANKER']), true);
    expect(out).toMatchObject({ risk: '低', tro_hit: false, top_conflict: '', brand_words: [] });
    expect(out.conflicts).toEqual([{ ...conflict('Anker', 0.9), allowlisted: true }]);
  });

  it('keeps the next conflict as the top one, with the risk it gives alone', () => {
    const out = applyAllowlist(result('高', [conflict('Anker', 0.9), conflict('Stanley', 0.4)]), allowlistKeys(['Anker']), false);
    expect(out).toEqual({ name: 'title', risk: '中', tro_hit: false, top_conflict: 'Stanley' });
  });

  it('a remaining TRO brand keeps tro_hit; a nominative one stays at 中 whatever its score', () => {
    const tro = applyAllowlist(result('高', [conflict('Anker', 0.9), conflict('Nike', 0.3, { tro: true })], true), allowlistKeys(['Anker']), false);
    expect(tro).toMatchObject({ risk: '高', tro_hit: true, top_conflict: 'Nike' });
    const nominative = conflict('Apple', 0.8, { reason: 'nominative use ("for", "compatible with"): still a risk on marketplaces' });
    expect(applyAllowlist(result('高', [conflict('Anker', 0.9), nominative]), allowlistKeys(['Anker']), false).risk).toBe('中');
  });

  it('never raises the risk first given, and leaves a result with no allowlisted conflict as it was', () => {
    expect(applyAllowlist(result('中', [conflict('Anker', 0.9), conflict('Stanley', 0.9)]), allowlistKeys(['Anker']), false).risk).toBe('中');
    const untouched = result('高', [conflict('Stanley', 0.9)]);
    expect(applyAllowlist(untouched, allowlistKeys(['Anker']), true)).toBe(untouched);
    expect(applyAllowlist(untouched, allowlistKeys(['Anker']), false)).toEqual({ name: 'title', risk: '高', tro_hit: false, top_conflict: 'Stanley' });
  });

  it('matches whole marks, spelling aside: "Sound-Core" is SOUNDCORE, "Apple" is not APPLE JACKS', () => {
    expect(brandKey('Sound-Core®')).toBe(brandKey('soundcore'));
    const out = applyAllowlist(result('高', [conflict('APPLE JACKS', 0.9)]), allowlistKeys(['Apple']), false);
    expect(out.risk).toBe('高');
  });
});
