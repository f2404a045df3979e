/**
 * The pictures a seller sends, made with sharp from a logo rendered with transparency: what `eval:logos` queries
 * with and what the calibration is fit on. Each perturbation is seeded, so a run is repeatable.
 *
 *   file itself           the logo on white, as registered
 *   rotated 15 degrees    15 degrees either way, on white
 *   mirrored              flipped left to right
 *   scaled 60%            the logo at 60% of a white square, centred
 *   cropped 12%           12% cut off one random side
 *   recoloured            coloured parts hue-rotated 90-270 degrees; black, grey or white parts painted one hue
 *   JPEG quality 30
 *   text beside           a line of product text set beside the logo, 40% of its height
 *   30% on busy picture   the logo at 30% of the side of a 512 px cluttered photo stand-in (gradient, noise, 20-40
 *                         random shapes of random colours, blurred), at a random place
 *   on a product          a product photographed on white (a shirt, a box, a mug or a bag, one shaded colour, 75-90%
 *                         of a 512 px picture) with the logo printed on it at 25-35% of the picture's side: the
 *                         background is plain, but the logo is no blob of its own
 *   inverted              the logo light on a dark or coloured ground, one of three ways alike: the picture's
 *                         colours negated (a black logo on white becomes white on black); the logo reversed out in
 *                         white or a pale tint on a dark ground (lightness 3-25%); the same on a strong colour
 *                         (saturation 60-100%, lightness 30-55%). Reversed out, a pixel takes the light colour in
 *                         proportion to how far it stands from white on the original (its ink), so anti-aliased
 *                         edges and pale parts stay in proportion.
 */
import sharp from 'sharp';

type Random = () => number;
export type Perturbation = (logo: Buffer, random: Random) => Promise<Buffer>;

const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };

export async function onWhite(logo: Buffer): Promise<Buffer> {
  return sharp(logo).flatten({ background: WHITE }).png().toBuffer();
}

async function sizeOf(image: Buffer): Promise<{ width: number; height: number }> {
  const { width = 1, height = 1 } = await sharp(image).metadata();
  return { width, height };
}

/** HSL (hue in degrees, saturation and lightness 0-1) to 8-bit RGB. */
function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const hp = (((h % 360) + 360) % 360) / 60;
  const x = c * (1 - Math.abs((hp % 2) - 1));
  const [r, g, b] =
    hp < 1 ? [c, x, 0] : hp < 2 ? [x, c, 0] : hp < 3 ? [0, c, x] : hp < 4 ? [0, x, c] : hp < 5 ? [x, 0, c] : [c, 0, x];
  const m = l - c / 2;
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}

/** 8-bit RGB to HSL (hue in degrees, saturation and lightness 0-1). */
function rgbToHsl(r: number, g: number, b: number): [number, number, number] {
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = d / (1 - Math.abs(2 * l - 1));
  const h = max === rn ? 60 * (((gn - bn) / d) % 6) : max === gn ? 60 * ((bn - rn) / d + 2) : 60 * ((rn - gn) / d + 4);
  return [h, s, l];
}

/**
 * The logo with its colours changed, as a PNG: coloured parts change hue; black, grey or white parts take a random
 * saturated colour (lightness kept apart).
 */
export async function recoloured(logo: Buffer, random: () => number): Promise<Buffer> {
  const { data, info } = await sharp(logo).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const rotation = 90 + random() * 180;
  const hue = random() * 360;
  for (let p = 0; p < data.length; p += 4) {
    const [h, s, l] = rgbToHsl(data[p]!, data[p + 1]!, data[p + 2]!);
    const [r, g, b] = s < 0.15 ? hslToRgb(hue, 0.8, 0.3 + 0.45 * l) : hslToRgb(h + rotation, s, l);
    data[p] = r;
    data[p + 1] = g;
    data[p + 2] = b;
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .png()
    .toBuffer();
}

const recolour: Perturbation = async (logo, random) => onWhite(await recoloured(logo, random));

const rotate15: Perturbation = async (logo, random) =>
  sharp(await onWhite(logo))
    .rotate(random() < 0.5 ? -15 : 15, { background: WHITE })
    .png()
    .toBuffer();

const mirrored: Perturbation = async (logo) =>
  sharp(await onWhite(logo))
    .flop()
    .png()
    .toBuffer();

const scaled: Perturbation = async (logo) => {
  const { width, height } = await sizeOf(logo);
  const canvas = Math.round(Math.max(width, height) / 0.6);
  return sharp({ create: { width: canvas, height: canvas, channels: 4, background: WHITE } })
    .composite([{ input: logo, left: Math.round((canvas - width) / 2), top: Math.round((canvas - height) / 2) }])
    .flatten({ background: WHITE })
    .png()
    .toBuffer();
};

const cropped: Perturbation = async (logo, random) => {
  const flat = await onWhite(logo);
  const { width, height } = await sizeOf(flat);
  const side = Math.floor(random() * 4);
  const cutX = Math.round(width * 0.12);
  const cutY = Math.round(height * 0.12);
  const box = [
    { left: cutX, top: 0, width: width - cutX, height },
    { left: 0, top: 0, width: width - cutX, height },
    { left: 0, top: cutY, width, height: height - cutY },
    { left: 0, top: 0, width, height: height - cutY },
  ][side]!;
  return sharp(flat).extract(box).png().toBuffer();
};

const jpeg30: Perturbation = async (logo) =>
  sharp(await onWhite(logo))
    .jpeg({ quality: 30 })
    .toBuffer();

const WORDS = [
  'Premium',
  'cotton',
  'T-shirt',
  'for',
  'men',
  'women',
  'new',
  'sale',
  'original',
  'quality',
  'sports',
  'outdoor',
  'gift',
  'set',
];

const textBeside: Perturbation = async (logo, random) => {
  const flat = await onWhite(logo);
  const { width, height } = await sizeOf(flat);
  const text = Array.from(
    { length: 2 + Math.floor(random() * 3) },
    () => WORDS[Math.floor(random() * WORDS.length)]!,
  ).join(' ');
  const fontSize = Math.max(10, Math.round(height * 0.4));
  const textWidth = Math.round(text.length * fontSize * 0.6);
  const gap = Math.round(fontSize * 0.5);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${textWidth}" height="${Math.round(fontSize * 1.3)}"><text x="0" y="${fontSize}" font-family="DejaVu Sans" font-size="${fontSize}" fill="#222">${text}</text></svg>`;
  const label = await sharp(Buffer.from(svg)).png().toBuffer();
  const canvasWidth = width + gap + textWidth;
  return sharp({ create: { width: canvasWidth, height, channels: 4, background: WHITE } })
    .composite([
      { input: flat, left: 0, top: 0 },
      { input: label, left: width + gap, top: Math.max(0, Math.round((height - fontSize * 1.3) / 2)) },
    ])
    .flatten({ background: WHITE })
    .png()
    .toBuffer();
};

/** A 512 px cluttered photo stand-in: a noisy gradient under random shapes, blurred a little. */
export async function busyPicture(random: Random, side = 512): Promise<Buffer> {
  const colour = () => `rgb(${Math.floor(random() * 256)},${Math.floor(random() * 256)},${Math.floor(random() * 256)})`;
  const shapes: string[] = [];
  for (let i = 0, n = 20 + Math.floor(random() * 21); i < n; i++) {
    const [x, y, w, h] = [random() * side, random() * side, 10 + random() * side * 0.4, 10 + random() * side * 0.4];
    const kind = random();
    if (kind < 0.4) shapes.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${colour()}"/>`);
    else if (kind < 0.75) shapes.push(`<ellipse cx="${x}" cy="${y}" rx="${w / 2}" ry="${h / 2}" fill="${colour()}"/>`);
    else
      shapes.push(
        `<line x1="${x}" y1="${y}" x2="${x + w}" y2="${y + h}" stroke="${colour()}" stroke-width="${1 + random() * 8}"/>`,
      );
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="${colour()}"/><stop offset="1" stop-color="${colour()}"/></linearGradient></defs>` +
    `<rect width="${side}" height="${side}" fill="url(#g)"/>${shapes.join('')}</svg>`;
  const noise = Buffer.alloc(side * side * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(random() * 40);
  const grain = await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: grain, blend: 'overlay' }])
    .blur(0.8)
    .png()
    .toBuffer();
}

const busy30: Perturbation = async (logo, random) => {
  const side = 512;
  const background = await busyPicture(random, side);
  const target = Math.round(side * 0.3);
  const small = await sharp(logo).resize(target, target, { fit: 'inside' }).png().toBuffer();
  const { width, height } = await sizeOf(small);
  return sharp(background)
    .composite([
      { input: small, left: Math.floor(random() * (side - width)), top: Math.floor(random() * (side - height)) },
    ])
    .png()
    .toBuffer();
};

/** A product silhouette as SVG in a `side` square, and the box on it where a print goes. */
function productShape(random: Random, side: number): { svg: string; print: { x: number; y: number; w: number } } {
  const s = side * (0.75 + random() * 0.15);
  const [x0, y0] = [(side - s) / 2, (side - s) / 2];
  const at = (fx: number, fy: number) => `${(x0 + fx * s).toFixed(1)},${(y0 + fy * s).toFixed(1)}`;
  const kind = Math.floor(random() * 4);
  const outline =
    kind === 0 // a shirt: body, sleeves, neckline
      ? `<path d="M${at(0.3, 0.05)} L${at(0.42, 0.1)} L${at(0.58, 0.1)} L${at(0.7, 0.05)} L${at(1, 0.25)} L${at(0.88, 0.42)} L${at(0.8, 0.36)} L${at(0.8, 1)} L${at(0.2, 1)} L${at(0.2, 0.36)} L${at(0.12, 0.42)} L${at(0, 0.25)} Z" fill="url(#p)"/>`
      : kind === 1 // a box
        ? `<rect x="${at(0.05, 0.1).split(',')[0]}" y="${at(0.05, 0.1).split(',')[1]}" width="${0.9 * s}" height="${0.85 * s}" rx="${0.03 * s}" fill="url(#p)"/>`
        : kind === 2 // a mug: body and handle
          ? `<rect x="${at(0.05, 0.1).split(',')[0]}" y="${at(0.05, 0.1).split(',')[1]}" width="${0.7 * s}" height="${0.85 * s}" rx="${0.06 * s}" fill="url(#p)"/><ellipse cx="${at(0.8, 0.5).split(',')[0]}" cy="${at(0.8, 0.5).split(',')[1]}" rx="${0.14 * s}" ry="${0.22 * s}" fill="none" stroke="url(#p)" stroke-width="${0.06 * s}"/>`
          : // a bag: body and handle
            `<rect x="${at(0.05, 0.3).split(',')[0]}" y="${at(0.05, 0.3).split(',')[1]}" width="${0.9 * s}" height="${0.7 * s}" rx="${0.04 * s}" fill="url(#p)"/><path d="M${at(0.3, 0.32)} Q${at(0.5, -0.1)} ${at(0.7, 0.32)}" fill="none" stroke="url(#p)" stroke-width="${0.04 * s}"/>`;
  const centre = [
    [0.5, 0.45],
    [0.5, 0.52],
    [0.4, 0.52],
    [0.5, 0.65],
  ][kind]!;
  return { svg: outline, print: { x: x0 + centre[0]! * s, y: y0 + centre[1]! * s, w: s } };
}

const onProduct: Perturbation = async (logo, random) => {
  const side = 512;
  const [h, sat, l] = [random() * 360, random() * 0.8, 0.15 + random() * 0.7];
  const [light, dark] = [hslToRgb(h, sat, Math.min(0.95, l + 0.12)), hslToRgb(h, sat, Math.max(0.05, l - 0.12))];
  const { svg: outline, print } = productShape(random, side);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><defs><linearGradient id="p" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="rgb(${light.join(',')})"/><stop offset="1" stop-color="rgb(${dark.join(',')})"/></linearGradient></defs>` +
    `<rect width="${side}" height="${side}" fill="#fff"/>${outline}</svg>`;
  const target = Math.round(side * (0.25 + random() * 0.1));
  const small = await sharp(logo).resize(target, target, { fit: 'inside' }).png().toBuffer();
  const { width, height } = await sizeOf(small);
  const left = Math.max(0, Math.min(side - width, Math.round(print.x - width / 2)));
  const top = Math.max(0, Math.min(side - height, Math.round(print.y - height / 2)));
  return sharp(Buffer.from(svg))
    .composite([{ input: small, left, top }])
    .flatten({ background: WHITE })
    .png()
    .toBuffer();
};

/** The logo light on a dark or coloured ground (see the header). */
export const inverted: Perturbation = async (logo, random) => {
  const flat = await onWhite(logo);
  const { data, info } = await sharp(flat).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const kind = Math.floor(random() * 3);
  const out = Buffer.alloc(data.length);
  if (kind === 0) {
    for (let i = 0; i < data.length; i++) out[i] = 255 - data[i]!;
  } else {
    const ground =
      kind === 1
        ? hslToRgb(random() * 360, random(), 0.03 + random() * 0.22)
        : hslToRgb(random() * 360, 0.6 + random() * 0.4, 0.3 + random() * 0.25);
    const light = random() < 0.5 ? [255, 255, 255] : hslToRgb(random() * 360, 0.5, 0.88 + random() * 0.07);
    for (let i = 0; i < data.length; i += 3) {
      const ink = (255 - Math.min(data[i]!, data[i + 1]!, data[i + 2]!)) / 255;
      for (let c = 0; c < 3; c++) out[i + c] = Math.round(ground[c]! + (light[c]! - ground[c]!) * ink);
    }
  }
  return sharp(out, { raw: { width: info.width, height: info.height, channels: 3 } })
    .png()
    .toBuffer();
};

export const THE_FILE: Perturbation = async (logo) => onWhite(logo);

/** Name, perturbation, and whether it belongs to the "average over simple changes" aim. */
export const SELLER_PERTURBATIONS: [string, Perturbation, 'file' | 'simple' | 'picture'][] = [
  ['the file itself', THE_FILE, 'file'],
  ['rotated 15 degrees', rotate15, 'simple'],
  ['mirrored', mirrored, 'simple'],
  ['scaled to 60%', scaled, 'simple'],
  ['cropped 12% on one side', cropped, 'simple'],
  ['recoloured', recolour, 'simple'],
  ['JPEG quality 30', jpeg30, 'simple'],
  ['text beside it', textBeside, 'picture'],
  ['30% size on a busy picture', busy30, 'picture'],
  ['printed on a product on white', onProduct, 'picture'],
  // Last, so that the pictures of the others (seeded by their place in this list) stay the same.
  ['light on a dark or coloured ground', inverted, 'simple'],
];
