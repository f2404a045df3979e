/**
 * A CN mark written in Chinese characters at the head of a Chinese title (namesChineseMark in
 * shared/screening/mark-strength.ts): the brand-use model was fitted on no Chinese title, so the register and the
 * brand's place decide there, not the model's extrapolation.
 */
import { namesChineseMark } from '../../../shared/screening/mark-strength';
import type { MatchKind, RunMatch } from '../../../shared/screening/run-matches';
import { createInMemoryScreening } from '../../support/in-memory-screening';
import { candidateCovering } from '../../support/title-candidates';

/** Whether the run of `title` that starts at word `start` and holds `text` names the CN mark `mark`. */
function names(title: string, text: string, mark: { nice: string[]; cn?: boolean; kind?: MatchKind }) {
  const { context, candidate } = candidateCovering(title, text, '');
  const match: RunMatch = {
    mark: text,
    serial: 'CN-TEST-1',
    niceClasses: mark.nice,
    isLive: true,
    kind: mark.kind ?? 'exact',
    distance: 0,
    tro: false,
    troOnly: false,
    cn: mark.cn ?? true,
    ownerRegistrations: 1,
    ownerClasses: mark.nice,
  };
  return namesChineseMark(context, candidate, match);
}

describe('namesChineseMark', () => {
  it('reads three or more characters at the head, written as registered, as the mark', () => {
    expect(names('阿迪达斯三叶草卫衣', '阿迪达斯', { nice: ['25', '28'] })).toBe(true);
    expect(names('香奈儿香水50ml', '香奈儿', { nice: ['03', '18', '25'] })).toBe(true);
  });

  it('leaves two characters, a run further in, a US mark and a run of Latin letters to the model', () => {
    expect(names('苹果手机壳', '苹果', { nice: ['09'] })).toBe(false);
    expect(names('正品香奈儿口红', '香奈儿', { nice: ['03'] })).toBe(false);
    expect(names('阿迪达斯三叶草卫衣', '阿迪达斯', { nice: ['25'], cn: false })).toBe(false);
    expect(names('Adidas hoodie', 'adidas', { nice: ['25'] })).toBe(false);
  });
});

describe('a Chinese title on the sample corpus', () => {
  it('is 中 at least on the CN mark its first characters write, whatever the model says of them', async () => {
    const { screening } = await createInMemoryScreening();
    const { results } = await screening.screen([{ title: '阿迪达斯三叶草卫衣' }], { detail: true });
    expect(results[0]!.risk).not.toBe('低');
    expect(results[0]!.top_conflict).toBe('阿迪达斯');
  });
});
