import sharp from 'sharp';
import {
  DESCRIPTOR_DIMENSIONS,
  PerceptualDescriptorEmbedder,
  describeLogo,
} from '../../../shared/imaging/perceptual-descriptor';
import type { NormalizedImage } from '../../../shared/ports';
import {
  loadSampleLogos,
  normalizeForEval,
  PERTURBATIONS,
  renderSampleLogo,
  seededRandom,
} from '../../bench/sample-logos';

const SAMPLE_FILES = [
  'simple-icons/adidas.svg',
  'simple-icons/3m.svg',
  'simple-icons/acer.svg',
  'simple-icons/honda.svg',
  'devicon/android-original.svg',
  'devicon/angular-original.svg',
];

function dot(a: Float32Array, b: Float32Array): number {
  return a.reduce((sum, v, i) => sum + v * b[i]!, 0);
}

function perturbation(name: string) {
  const found = PERTURBATIONS.find(([label]) => label.startsWith(name));
  if (!found) throw new Error(`no perturbation ${name}`);
  return found[1];
}

describe('PerceptualDescriptorEmbedder', () => {
  const embedder = new PerceptualDescriptorEmbedder();
  const logos = loadSampleLogos().filter((logo) => SAMPLE_FILES.includes(logo.file));
  let rendered: Buffer[];
  let originals: Float32Array[];

  beforeAll(async () => {
    rendered = await Promise.all(logos.map((logo) => renderSampleLogo(logo)));
    originals = await Promise.all(rendered.map(async (png) => embedder.embed(await normalizeForEval(png))));
  });

  it('is named descriptor and gives unit vectors of its fixed dimension', () => {
    expect(logos).toHaveLength(SAMPLE_FILES.length);
    expect(embedder.name).toBe('descriptor');
    expect(embedder.dimensions).toBe(DESCRIPTOR_DIMENSIONS);
    for (const vector of originals) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(DESCRIPTOR_DIMENSIONS);
      expect(Math.sqrt(dot(vector, vector))).toBeCloseTo(1, 5);
      expect(vector.every(Number.isFinite)).toBe(true);
    }
  });

  it.each(['recolour', 'colour inversion', 'scale', 'thin border', 'JPEG'])(
    'keeps a logo under %s nearer to itself than to the other logos',
    async (name) => {
      const perturb = perturbation(name);

      for (const [i, png] of rendered.entries()) {
        const query = await embedder.embed(await normalizeForEval(await perturb(png, seededRandom(i + 1))));
        const scores = originals.map((original) => dot(original, query));

        const best = scores.indexOf(Math.max(...scores));
        expect(logos[best]!.file).toBe(logos[i]!.file);
      }
    },
  );

  it('separates different logos', () => {
    for (let i = 0; i < originals.length; i++) {
      for (let j = i + 1; j < originals.length; j++) expect(dot(originals[i]!, originals[j]!)).toBeLessThan(0.95);
    }
  });

  it('is deterministic and does not touch its input', async () => {
    const image = await normalizeForEval(rendered[0]!);
    const copy = Uint8Array.from(image.rgb);

    const first = describeLogo(image);
    const second = await embedder.embed({ rgb: Uint8Array.from(image.rgb), width: image.width, height: image.height });

    expect(Array.from(second)).toEqual(Array.from(first));
    expect(image.rgb).toEqual(copy);
  });

  it('gives a blank image a fixed unit vector, and accepts other sizes', async () => {
    const blank: NormalizedImage = { rgb: new Uint8Array(224 * 224 * 3).fill(255), width: 224, height: 224 };
    const { data, info } = await sharp(rendered[0]!)
      .flatten({ background: '#ffffff' })
      .resize(64, 64, { fit: 'contain', background: '#ffffff' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });

    const blankVector = describeLogo(blank);
    const small = describeLogo({ rgb: new Uint8Array(data), width: info.width, height: info.height });

    expect(Math.sqrt(dot(blankVector, blankVector))).toBeCloseTo(1, 5);
    expect(Array.from(describeLogo(blank))).toEqual(Array.from(blankVector));
    expect(dot(small, originals[0]!)).toBeGreaterThan(Math.max(...originals.slice(1).map((o) => dot(small, o))));
  });

  it('refuses a buffer too short for its dimensions and an aborted call', async () => {
    expect(() => describeLogo({ rgb: new Uint8Array(10), width: 224, height: 224 })).toThrow(RangeError);
    await expect(
      embedder.embed({ rgb: new Uint8Array(224 * 224 * 3), width: 224, height: 224 }, { signal: AbortSignal.abort() }),
    ).rejects.toThrow();
  });
});
