import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LearnedLogoEmbedder, LOGO_NET_MODEL } from '../../../shared/adapters/local/learned-logo-embedder';
import { normalizeImage } from '../../../shared/imaging/normalize-image';
import { CANDIDATE_WINDOWS } from '../../../shared/imaging/regions';

const ROOT = path.join(__dirname, '../../..');
const sample = (file: string) => normalizeImage(readFileSync(path.join(ROOT, 'data/sample/logos', file)));
const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, v, i) => sum + v * b[i]!, 0);

describe('the learned logo embedder (the committed model, run with onnxruntime-node)', () => {
  let embedder: LearnedLogoEmbedder;
  beforeAll(async () => {
    embedder = await LearnedLogoEmbedder.load(path.join(ROOT, LOGO_NET_MODEL));
  });
  afterAll(() => embedder.close());

  it('gives unit vectors of 128 values; the whole-picture window equals the single embedding', async () => {
    const nike = await sample('simple-icons/nike.svg');
    const vector = await embedder.embed(nike);
    const [whole, corner] = await embedder.embedWindows(nike, [CANDIDATE_WINDOWS[0]!, CANDIDATE_WINDOWS[1]!]);
    expect(vector).toHaveLength(128);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    expect(dot(vector, whole!)).toBeCloseTo(1, 5);
    expect(dot(vector, corner!)).toBeLessThan(0.999);
  });
});
