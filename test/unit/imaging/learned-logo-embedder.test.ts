import { readFileSync } from 'node:fs';
import path from 'node:path';
import { centred, LearnedLogoEmbedder, LOGO_NET_MODEL } from '../../../shared/adapters/local/learned-logo-embedder';
import shippedCentre from '../../../data/models/logo-embedder/centre.json';
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

  it('centres its output with the centre recorded for this very model, and only for it', async () => {
    expect(embedder.centre).toEqual(shippedCentre.vector);
    const other = await LearnedLogoEmbedder.load(path.join(ROOT, LOGO_NET_MODEL), {
      centre: { model_sha256: '0'.repeat(64), vector: shippedCentre.vector },
    });
    try {
      expect(other.centre).toBeUndefined();
      const nike = await sample('simple-icons/nike.svg');
      const plain = await other.embed(nike);
      const centredVector = await embedder.embed(nike);
      expect(dot(centred(plain, shippedCentre.vector), centredVector)).toBeCloseTo(1, 5);
      expect(dot(plain, centredVector)).toBeLessThan(0.99);
    } finally {
      await other.close();
    }
  });

  it('centring subtracts and normalises again', () => {
    const out = centred(Float32Array.of(0.6, 0.8), [0.6, 0]);
    expect(out[0]).toBeCloseTo(0, 6);
    expect(out[1]).toBeCloseTo(1, 6);
  });
});
