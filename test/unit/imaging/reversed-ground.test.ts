/**
 * A light logo on a dark or coloured ground: the normaliser's reversed form (normalize-image.ts, step 7), with real
 * sharp. The search over both forms is measured by `npm run eval:logos` ("light on a dark or coloured ground") and
 * exercised in region-boxes.test.ts (a white logo on navy, found first, its box in place).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { groundColour, groundToWhite, normalizeImage } from '../../../shared/imaging/normalize-image';

const ROOT = path.join(__dirname, '../../..');
const ICONS = path.join(ROOT, 'data/sample/logos/simple-icons');
const svgOf = (brand: string) => readFileSync(path.join(ICONS, `${brand}.svg`));

const hex = (rgb: readonly number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

/** The logo drawn in `ink` at up to 400 px, 40 px inside a `ground` canvas, as a PNG. */
async function logoOn(brand: string, ground: readonly number[], ink: readonly number[]): Promise<Buffer> {
  const svg = svgOf(brand)
    .toString('utf8')
    .replace('<svg ', `<svg fill="${hex(ink)}" `);
  const logo = await sharp(Buffer.from(svg), { density: 600 }).resize(400, 400, { fit: 'inside' }).png().toBuffer();
  const { width = 400, height = 400 } = await sharp(logo).metadata();
  return sharp({ create: { width: width + 80, height: height + 80, channels: 3, background: hex(ground) } })
    .composite([{ input: logo, left: 40, top: 40 }])
    .png()
    .toBuffer();
}

/** A logo reversed out: drawn in `light` (white unless given) on `ground`. */
const reversedOut = (brand: string, ground: number[], light = [255, 255, 255]) => logoOn(brand, ground, light);

describe('the ground of a picture and its reversed form', () => {
  const flat = (width: number, height: number, pixel: (x: number, y: number) => number[]) => {
    const rgb = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgb.set(pixel(x, y), (y * width + x) * 3);
    return rgb;
  };

  it('finds a plain ground from the outer ring, and none on a picture without one', () => {
    expect(
      groundColour(
        flat(40, 30, (x) => (x > 10 && x < 20 ? [0, 0, 0] : [20, 30, 90])),
        40,
        30,
      ),
    ).toEqual([20, 30, 90]);
    let seed = 7;
    const noise = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % 256;
    };
    expect(
      groundColour(
        flat(40, 30, () => [noise(), noise(), noise()]),
        40,
        30,
      ),
    ).toBeUndefined();
  });

  it('turns a colour negative on black back into the picture, and a white logo on red into red on white', () => {
    const original = flat(
      8,
      1,
      (x) =>
        [
          [255, 255, 255],
          [0, 0, 0],
          [230, 80, 20],
          [40, 120, 200],
        ][x % 4]!,
    );
    const negative = original.map((v) => 255 - v);
    expect([...groundToWhite(negative, [0, 0, 0])]).toEqual([...original]);
    const whiteOnRed = flat(4, 1, (x) => (x < 2 ? [200, 0, 0] : [255, 255, 255]));
    expect([...groundToWhite(whiteOnRed, [200, 0, 0])]).toEqual([
      ...[255, 255, 255, 255, 255, 255],
      ...[255 - 55 * 1, 0, 0, 255 - 55 * 1, 0, 0],
    ]);
  });

  it('normalises a white logo on navy with its reversed form (white ground, dark logo); a logo on white has none', async () => {
    const navy = await normalizeImage(await reversedOut('adidas', [20, 26, 60]));
    const reversed = navy.reversed!;
    expect(reversed).toBeDefined();
    expect([reversed.width, reversed.height, reversed.content]).toEqual([navy.width, navy.height, navy.content]);
    expect([...reversed.rgb.subarray(0, 3)]).toEqual([255, 255, 255]);
    // The reversed form is the logo as it stands on white, within a few levels (anti-aliasing).
    const plain = await normalizeImage(await logoOn('adidas', [255, 255, 255], [0, 0, 0]));
    expect(plain.reversed).toBeUndefined();
    expect(plain.content).toEqual(navy.content);
    let difference = 0;
    for (let i = 0; i < plain.rgb.length; i++) difference += Math.abs(plain.rgb[i]! - reversed.rgb[i]!);
    expect(difference / plain.rgb.length).toBeLessThan(8);
    expect(plain.rgb.filter((v) => v < 100).length / plain.rgb.length).toBeGreaterThan(0.1);
    expect((await normalizeImage(svgOf('adidas'))).reversed).toBeUndefined();
  });
});
