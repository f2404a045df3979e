import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  designAt,
  KIND_SHARES,
  markWords,
  nestedSvg,
  registerScaleDesigns,
  writeRegisterScaleLogos,
  type DesignSources,
  type ScaleDesign,
} from '../../../builders/logo-embedder/register-scale-logos';
import { normalizeImage } from '../../../shared/imaging/normalize-image';

const ROOT = path.join(__dirname, '../../..');
const icon = (slug: string, hex: string) =>
  readFileSync(path.join(ROOT, 'node_modules/simple-icons/icons', `${slug}.svg`), 'utf8').replace(
    '<svg ',
    `<svg fill="#${hex}" `,
  );

/** A few words and three training logos: two one-colour icons and a devicon design with several colours. */
const SOURCES: DesignSources = {
  words: markWords('apple\nBoston\nriver\nstone\nit\nlantern\nmeadow\nharbor\nvelvet\ncopper\nsummit\nfalcon\n'),
  trainingLogos: [
    { brand: 'nike', title: 'Nike', svg: icon('nike', '111111') },
    { brand: 'spotify', title: 'Spotify', svg: icon('spotify', '1ED760') },
    {
      brand: 'react',
      title: 'React',
      svg: readFileSync(path.join(ROOT, 'node_modules/devicon/icons/react/react-original.svg'), 'utf8'),
    },
  ],
};

const take = (seed: number, count: number, from = 0): ScaleDesign[] => [
  ...registerScaleDesigns(seed, from + count, SOURCES, from),
];

describe('register-scale logo corpus', () => {
  it('keeps only plain lower-case dictionary words of 3 to 12 letters', () => {
    // Arrange / Act
    const words = SOURCES.words;
    // Assert
    expect(words).toEqual([
      'apple',
      'river',
      'stone',
      'lantern',
      'meadow',
      'harbor',
      'velvet',
      'copper',
      'summit',
      'falcon',
    ]);
  });

  it('draws the same corpus from the same seed, and another from another seed', () => {
    // Arrange / Act
    const first = take(41, 200);
    const again = take(41, 200);
    const other = take(42, 200);
    // Assert
    expect(again).toEqual(first);
    const same = other.filter((d, i) => d.svg === first[i]!.svg).length;
    expect(same).toBeLessThan(5);
  });

  it('draws mark i the same whether the run starts at 0 or resumes at i', () => {
    // Arrange
    const whole = take(7, 120);
    // Act
    const resumed = take(7, 40, 80);
    // Assert
    expect(resumed).toEqual(whole.slice(80));
    expect(resumed[0]!.serial).toBe('RSL-00000081');
  });

  it('mixes the kinds in their shares, with the wordmark styles and near-duplicate variants the register has', () => {
    // Arrange / Act
    const designs = take(41, 4000);
    // Assert
    for (const [kind, share] of KIND_SHARES) {
      const observed = designs.filter((d) => d.kind === kind).length / designs.length;
      expect(Math.abs(observed - share)).toBeLessThan(0.03);
    }
    const wordmarks = designs.filter((d) => d.kind.endsWith('wordmark'));
    const styled = (text: string) => wordmarks.filter((d) => d.style.includes(text)).length / wordmarks.length;
    for (const style of ['on an arc', 'inside a', 'outline', 'italic', 'bold', 'with '])
      expect(styled(style)).toBeGreaterThan(0.05);
    expect(styled('with ')).toBeLessThan(0.5);
    expect(new Set(wordmarks.map((d) => /font-family="([^"]+)"/.exec(d.svg)![1])).size).toBeGreaterThanOrEqual(4);
    // Every dictionary wordmark spells dictionary words; coined words mostly are not words.
    const known = new Set(SOURCES.words);
    for (const d of designs.filter((x) => x.kind === 'dictionary wordmark'))
      expect(
        d.mark
          .toLowerCase()
          .split(' ')
          .every((w) => known.has(w)),
      ).toBe(true);
    const coined = designs.filter((d) => d.kind === 'coined wordmark');
    expect(coined.filter((d) => known.has(d.mark.toLowerCase())).length / coined.length).toBeLessThan(0.05);
    // Symbols carry no text.
    for (const d of designs.filter((x) => x.kind === 'symbol')) expect(d.mark).toBe('');
    const near = designs.filter((d) => d.kind === 'near-duplicate');
    for (const variant of ['recoloured', 're-arranged', 'a letter changed'])
      expect(near.filter((d) => d.style.startsWith(variant)).length).toBeGreaterThan(near.length * 0.15);
    for (const d of near) expect(['nike', 'spotify', 'react']).toContain(d.variantOf);
    // "A letter changed": the brand's name with exactly one letter replaced.
    const titles = new Map(SOURCES.trainingLogos.map((l) => [l.brand, l.title]));
    for (const d of near.filter((x) => x.style.startsWith('a letter changed') && x.mark)) {
      const title = titles.get(d.variantOf!)!;
      expect(d.mark).toHaveLength(title.length);
      expect([...d.mark].filter((c, i) => c !== title[i]).length).toBe(1);
    }
  });

  it('streams: a corpus of any size yields its first marks without drawing the rest', () => {
    // Arrange
    const designs = registerScaleDesigns(41, Number.MAX_SAFE_INTEGER, SOURCES);
    // Act
    const first = [designs.next().value, designs.next().value, designs.next().value] as ScaleDesign[];
    // Assert
    expect(first.map((d) => d.serial)).toEqual(['RSL-00000001', 'RSL-00000002', 'RSL-00000003']);
    expect(first[2]).toEqual(designAt(41, 2, SOURCES));
  });

  it('draws designs the service can read: each kind normalises to a picture with content', async () => {
    // Arrange
    const designs = take(41, 400);
    const sample = KIND_SHARES.flatMap(([kind]) => designs.filter((d) => d.kind === kind).slice(0, 3));
    // Act: one at a time, as ingest renders them (each render has its own deadline)
    const pictures = [];
    for (const d of sample) pictures.push(await normalizeImage(Buffer.from(d.svg)));
    // Assert
    expect(pictures).toHaveLength(12);
    for (const picture of pictures) {
      expect(picture.content).toBeDefined();
      expect(picture.rgb.some((v) => v < 200)).toBe(true);
    }
  });

  it('nests a training logo at the place and size asked, whatever size its own root declares', async () => {
    // Arrange
    const inner = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
    // Act
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">${nestedSvg(inner, 50, 0, 50, 50)}</svg>`;
    const picture = await normalizeImage(Buffer.from(svg));
    // Assert: only the top-right quarter is drawn.
    const box = picture.content!;
    expect(box.left / 512).toBeCloseTo(0.5, 1);
    expect(box.top).toBeLessThan(3);
    expect(box.width / 512).toBeCloseTo(0.5, 1);
    expect(box.height / 512).toBeCloseTo(0.5, 1);
    expect(nestedSvg(inner, 50, 0, 50, 50)).toContain('viewBox="0 0 10 10"');
    expect(nestedSvg(inner, 50, 0, 50, 50)).toMatch(/^<svg x="50" y="0" width="50" height="50"/);
  });

  describe('writing a corpus', () => {
    let folder: string;
    beforeEach(() => {
      folder = mkdtempSync(path.join(os.tmpdir(), 'register-scale-logos-'));
    });
    afterEach(() => rmSync(folder, { recursive: true, force: true }));

    const contents = (out: string) => ({
      logos: readFileSync(path.join(out, 'logos.jsonl'), 'utf8'),
      marks: readFileSync(path.join(out, 'marks.jsonl'), 'utf8'),
      images: readdirSync(path.join(out, 'images'), { recursive: true }).length,
    });

    it('writes a chunk at a time and, cut off part way (a half-written line left behind), resumes to the same files', () => {
      // Arrange
      const whole = path.join(folder, 'whole');
      const cut = path.join(folder, 'cut');
      writeRegisterScaleLogos({ out: whole, marks: 250, seed: 5, sources: SOURCES, chunk: 100 });
      const chunks: number[] = [];
      writeRegisterScaleLogos({
        out: cut,
        marks: 250,
        seed: 5,
        sources: SOURCES,
        chunk: 100,
        maxChunks: 1,
        onChunk: (p) => chunks.push(p.marks),
      });
      appendFileSync(path.join(cut, 'logos.jsonl'), '{"serial":"RSL-000001');
      // Act
      const resumed = writeRegisterScaleLogos({
        out: cut,
        marks: 250,
        seed: 5,
        sources: SOURCES,
        chunk: 100,
        onChunk: (p) => chunks.push(p.marks),
      });
      // Assert
      expect(chunks).toEqual([100, 200, 250]);
      expect(resumed.marks).toBe(250);
      expect(contents(cut)).toEqual(contents(whole));
      const lines = contents(whole).logos.trim().split('\n');
      expect(lines).toHaveLength(250);
      const line = JSON.parse(lines[249]!) as { serial: string; file: string; nice: number[] };
      expect(line.serial).toBe('RSL-00000250');
      expect(readFileSync(path.join(whole, line.file), 'utf8')).toBe(designAt(5, 249, SOURCES).svg);
    });

    it('extends a finished corpus to a larger one equal to a single run of that size', () => {
      // Arrange
      const grown = path.join(folder, 'grown');
      const direct = path.join(folder, 'direct');
      writeRegisterScaleLogos({ out: grown, marks: 120, seed: 9, sources: SOURCES, chunk: 50 });
      // Act
      writeRegisterScaleLogos({ out: grown, marks: 180, seed: 9, sources: SOURCES, chunk: 50 });
      writeRegisterScaleLogos({ out: direct, marks: 180, seed: 9, sources: SOURCES, chunk: 50 });
      // Assert
      expect(contents(grown)).toEqual(contents(direct));
    });

    it('refuses a folder holding a corpus of another seed', () => {
      // Arrange
      writeRegisterScaleLogos({ out: folder, marks: 10, seed: 1, sources: SOURCES });
      // Act / Assert
      expect(() => writeRegisterScaleLogos({ out: folder, marks: 20, seed: 2, sources: SOURCES })).toThrow(/seed 1/);
    });
  });
});
