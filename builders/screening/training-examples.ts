/**
 * The examples the brand-use model is fitted and chosen on (steps 1 and 2 of builders/train-screening-model.ts):
 * every match of the train titles (as labelled, with their brand removed, respelt and made by the rules of
 * rule-variants.ts) and of the validation titles, each with its features and label. Shared by the trainer and by
 * the test that checks the shipped model was fitted on the features the engine computes now
 * (test/unit/screening/model-features-current.test.ts).
 */
import { createHash } from 'node:crypto';
import { FEATURE_NAMES } from '../../shared/screening/brand-use-features';
import { SERIAL_PREFIX } from '../register-scale-corpus';
import { classHiddenCopies } from './class-hidden-copies';
import { evasiveSpelling, misspelling } from './evasion-variants';
import type { LabelledTitle } from './labelled-titles';
import {
  joinedVariants,
  lowerCaseVariants,
  makerCueVariants,
  modifierExampleKept,
  modifierVariants,
  nominativeVariants,
  personNameVariants,
  quantityVariants,
  termExampleKept,
  termVariants,
} from './rule-variants';
import {
  brandedThenRemoved,
  crossFitGroups,
  labelledExamples,
  loadCorpus,
  type Corpus,
  type CorpusOptions,
  type LabelledExample,
  type SplitTitles,
} from './screening-dataset';

function replaceBrand(t: LabelledTitle, spelt: string, kind: string): LabelledTitle {
  const pattern = new RegExp(
    `(^|[^\\p{L}\\p{N}])${t.brand.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=$|[^\\p{L}\\p{N}])`,
    'iu',
  );
  return { ...t, id: `${t.id}:${kind}`, title: t.title.replace(pattern, `$1${spelt}`) };
}

/** Every fifth branded train title with its brand spelt evasively, and another fifth with it misspelt. */
function respelt(titles: readonly LabelledTitle[]): LabelledTitle[] {
  const out: LabelledTitle[] = [];
  titles.forEach((t, n) => {
    if (t.set === 'markup-amazon') return;
    const evasive = n % 5 === 0 ? evasiveSpelling(t.brand, n / 5) : undefined;
    if (evasive) out.push(replaceBrand(t, evasive, 'evasive'));
    const misspelt = n % 5 === 1 ? misspelling(t.brand, (n - 1) / 5) : undefined;
    if (misspelt) out.push(replaceBrand(t, misspelt, 'misspelt'));
  });
  return out;
}

/**
 * Of the train matches that are no brand use of a register-scale corpus's mark (an ordinary word somebody
 * registered: about three in four train matches), one in REGISTER_NEGATIVE_THINNING is kept, by SHA-256 of the title
 * and the mark, standing for that many (its weight): they are many and alike, and fitting on all of them took
 * the trees about four times as long (270,714 train rows against 71,467 without the register) for the same
 * patterns. Brand uses, and every match of the other marks, are all kept.
 */
export const REGISTER_NEGATIVE_THINNING = 3;

function thinRegisterNegatives(train: LabelledExample[]): void {
  let kept = 0;
  for (const example of train) {
    if (example.label === 1 || !example.match.serial.startsWith(SERIAL_PREFIX)) {
      train[kept++] = example;
      continue;
    }
    const draw = createHash('sha256').update(`${example.title.id}\n${example.match.serial}`).digest().readUInt32BE(0);
    if (draw % REGISTER_NEGATIVE_THINNING === 0) train[kept++] = { ...example, weight: REGISTER_NEGATIVE_THINNING };
  }
  train.length = kept;
}

export interface TrainingExamples {
  /** The registered corpus (validation is matched against it, as the evaluation reads it). */
  corpus: Corpus;
  /** The registered corpus plus the common terms of goods with an unlisted word as marks (train titles). */
  trainCorpus: Corpus;
  /** The titles made from the train titles, by rule. */
  made: Record<string, LabelledTitle[]>;
  trainTitles: LabelledTitle[];
  validationTitles: LabelledTitle[];
  train: LabelledExample[];
  validationByTitle: LabelledExample[][];
  validation: LabelledExample[];
  /**
   * The train split's own titles (as labelled, then with their brand removed) of the brand groups scored out of fold
   * (crossFitGroups), read as validation reads its titles: against the registered corpus, each brand's titles without
   * their own counts. Trees fitted without a title's fold score it, for the scaling and thresholds.
   */
  crossFitTitles: LabelledTitle[];
  crossFitByTitle: LabelledExample[][];
}

/**
 * `register`: a register-scale corpus (data:register-scale) loaded under every corpus here, so that the ordinary
 * words of the titles are matched by marks as they are in the real register, and the model and its thresholds are
 * fitted and chosen on what a title's ordinary words match there.
 */
export async function trainingExamples(
  splits: {
    train: SplitTitles;
    validation: SplitTitles;
  },
  { register, onFound }: Pick<CorpusOptions, 'register' | 'onFound'> = {},
): Promise<TrainingExamples> {
  // Train titles are also matched against the common terms of goods registered as marks (termMarkBatch); validation,
  // which chooses the trees and thresholds, against the registered corpus alone, as the evaluation reads it.
  const corpus = await loadCorpus('registered', {}, { register, onFound });
  const trainCorpus = await loadCorpus('registered', {}, { termMarks: true, register, onFound });
  const term = termVariants(splits.train.removed);
  const made = {
    respelt: respelt(splits.train.branded),
    nominative: nominativeVariants(splits.train.branded),
    makerCue: makerCueVariants(splits.train.branded),
    personName: personNameVariants(splits.train.removed, splits.train.branded),
    quantity: quantityVariants(splits.train.removed),
    joined: joinedVariants(splits.train.removed),
    modifier: modifierVariants(splits.train.removed),
    term,
    lowerCase: lowerCaseVariants([...splits.train.branded, ...splits.train.removed, ...term]),
  };
  const trainTitles = [...splits.train.branded, ...splits.train.removed, ...Object.values(made).flat()];
  const validationTitles = brandedThenRemoved(splits.validation);
  const classOther = FEATURE_NAMES.indexOf('class_other');
  const inTerm = [FEATURE_NAMES.indexOf('in_common_phrase'), FEATURE_NAMES.indexOf('run_common_phrase')];
  // Train titles with every title in the plain-word counts, their own brand's too; validation, as the evaluation,
  // without their own brand's. Fitted on train titles without their own brand's counts as well, the trees did worse
  // on those validation titles (log loss after scaling 0.0501, against 0.0485 for trees fitted as now).
  const train = (await labelledExamples(trainCorpus.screener, trainTitles, 'every title'))
    .flat()
    .filter((e) => !e.title.id.includes(':modifier') || modifierExampleKept(e, classOther))
    .filter((e) => !e.title.id.includes(':term') || termExampleKept(e, inTerm));
  thinRegisterNegatives(train);
  // One at a time: a register-scale corpus gives more matches than a call's arguments may hold.
  for (const copy of classHiddenCopies(train)) train.push(copy);
  const validationByTitle = await labelledExamples(corpus.screener, validationTitles);
  const validation = validationByTitle.flat();
  const crossFit = crossFitGroups(splits.train);
  const crossFitTitles = brandedThenRemoved(splits.train).filter((t) => crossFit.has(t.group));
  const crossFitByTitle = await labelledExamples(corpus.screener, crossFitTitles);
  return {
    corpus,
    trainCorpus,
    made,
    trainTitles,
    validationTitles,
    train,
    validationByTitle,
    validation,
    crossFitTitles,
    crossFitByTitle,
  };
}
