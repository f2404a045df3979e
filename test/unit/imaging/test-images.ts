/** Real images made with sharp (and one PNG header patched by hand) for the imaging tests. */
import { crc32 } from 'node:zlib';
import sharp from 'sharp';

export type Rgb = [number, number, number];

export const RED: Rgb = [255, 0, 0];
export const BLUE: Rgb = [0, 0, 255];
export const WHITE: Rgb = [255, 255, 255];

/** A `width` x `height` canvas of `background` with one filled rectangle on it, as PNG. */
export async function rectanglePng(options: {
  width: number;
  height: number;
  background: { r: number; g: number; b: number; alpha: number };
  rect: { left: number; top: number; width: number; height: number; colour: string };
}): Promise<Buffer> {
  const { rect } = options;
  const patch = await sharp({
    create: { width: rect.width, height: rect.height, channels: 4, background: rect.colour },
  })
    .png()
    .toBuffer();
  return sharp({
    create: { width: options.width, height: options.height, channels: 4, background: options.background },
  })
    .composite([{ input: patch, left: rect.left, top: rect.top }])
    .png()
    .toBuffer();
}

/** A red 100 x 50 logo at (50, 50) on a fully transparent 300 x 200 canvas. */
export function transparentLogoPng(): Promise<Buffer> {
  return rectanglePng({
    width: 300,
    height: 200,
    background: { r: 0, g: 0, b: 0, alpha: 0 },
    rect: { left: 50, top: 50, width: 100, height: 50, colour: '#ff0000' },
  });
}

export function solidPng(width: number, height: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** A `width` x `height` white picture with a `colour` block over its middle half: the smallest image with content. */
export function markPng(width: number, height: number, colour: string): Promise<Buffer> {
  const rect = {
    left: Math.floor(width / 4),
    top: Math.floor(height / 4),
    width: Math.max(1, Math.ceil(width / 2)),
    height: Math.max(1, Math.ceil(height / 2)),
    colour,
  };
  return rectanglePng({ width, height, background: { r: 255, g: 255, b: 255, alpha: 1 }, rect });
}

/** A two-frame animated GIF: the first frame a `first` block on white, the second a `second` block. */
export async function animatedGif(first: string, second: string): Promise<Buffer> {
  const frames = await Promise.all([markPng(40, 40, first), markPng(40, 40, second)]);
  return sharp(frames, { join: { animated: true } })
    .gif({ delay: [100, 100] })
    .toBuffer();
}

/**
 * A valid PNG of 1 x 1 pixel whose IHDR then declares `width` x `height`, with the chunk CRC recomputed so that the
 * header is well-formed: a decompression bomb's calling card, a few dozen bytes long.
 */
export async function pngDeclaring(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await solidPng(1, 1, '#000000'));
  // Signature (8) + IHDR length (4) + "IHDR" (4) + width (4) + height (4) + 5 more bytes of data + CRC (4).
  if (png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('IHDR is not the first chunk');
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

/** The RGB triple at (x, y) of a row-major 8-bit RGB buffer. */
export function pixelAt(rgb: Uint8Array, width: number, x: number, y: number): Rgb {
  const offset = (y * width + x) * 3;
  return [rgb[offset]!, rgb[offset + 1]!, rgb[offset + 2]!];
}

/** Largest channel difference between two colours. */
export function distance(a: Rgb, b: Rgb): number {
  return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));
}
