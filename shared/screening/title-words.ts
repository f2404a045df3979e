/**
 * A title as words: Latin words normalised as lookup keys are (shared/marks/lookup-keys), split where letters
 * meet digits ("iPhone15" -> iphone, 15), and CJK runs segmented into words with Intl.Segmenter. Each word keeps
 * what the seller wrote, for the answer and for the capitalisation that tells "Apple iPhone" from "apple slicer".
 */
import { INVISIBLE, hasCjk, normalizeText } from '../marks/lookup-keys';

export interface TitleWord {
  /** As written (after NFKC). */
  text: string;
  /** Normalised: lower-case, accents off. */
  norm: string;
  cjk: boolean;
  /** Written with a capital first letter (or all capitals) in a title that is not all capitals. */
  capitalised: boolean;
}

const RAW_WORDS = /[\p{L}\p{N}\p{M}'’]+/gu;
const LETTER_DIGIT_BOUNDARY = /(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

export function wordsOfTitle(title: string): TitleWord[] {
  // Mark symbols go before NFKC, which would turn ™ into the letters TM.
  const text = title.replace(INVISIBLE, '').replace(/[™®©℠℗]/g, ' ').normalize('NFKC');
  const shouting = text === text.toUpperCase();
  const words: TitleWord[] = [];
  for (const match of text.matchAll(RAW_WORDS)) {
    for (const part of match[0].split(LETTER_DIGIT_BOUNDARY)) {
      if (hasCjk(part)) {
        for (const segment of segmenter.segment(part)) {
          if (!segment.isWordLike) continue;
          const norm = normalizeText(segment.segment);
          if (norm) words.push({ text: segment.segment, norm, cjk: hasCjk(norm), capitalised: false });
        }
        continue;
      }
      const norm = normalizeText(part).replace(/ /g, '');
      if (!norm) continue;
      const first = part[0] ?? '';
      words.push({ text: part, norm, cjk: false, capitalised: !shouting && first !== first.toLowerCase() });
    }
  }
  return words;
}
