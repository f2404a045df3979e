/**
 * Turns the bytes a client sent into the one picture every embedder sees.
 *
 * Input: image bytes (PNG, JPEG, WebP, GIF or SVG) and the output size. Output: a NormalizedImage, size x size
 * 8-bit RGB.
 * 1. Recognise the format from its first bytes; anything else (text, an empty file, TIFF, PDF ...) is refused.
 * 2. SVG only: read it as XML and refuse anything that could make the renderer reach outside the file (see
 *    `checkSvg`), then drop a bare DOCTYPE so no external DTD is ever looked at.
 * 3. Read the declared dimensions from the header alone and refuse more than 4096 on either side, so that a small
 *    file declaring 50,000 x 50,000 pixels is refused before a single pixel is decoded. The decoder is capped at
 *    4096 x 4096 pixels as well.
 * 4. Decode the first frame (GIF, animated WebP), honouring the EXIF orientation; SVG is rendered so that its longer
 *    side is SVG_RENDER_SIDE pixels.
 * 5. Flatten on white, then trim near-uniform borders (within TRIM_THRESHOLD of the top-left pixel; see `contentBox`).
 *    An image that is all border (one colour, or nothing left after the trim) has nothing to search for:
 *    ImageHasNoContentError (422 `image_has_no_content`).
 * 6. Pad to a square with white (the content centred) and resize to size x size; 3 channels, no alpha.
 * 7. A picture on a plain ground that is not white (a white logo on black, a pale one on a brand colour: see
 *    `groundColour`) also gets its reversed form (`reversed`): the same square padded with the ground colour, then
 *    each channel turned over by its distance from the ground's (`groundToWhite`), so the ground and the padding
 *    are white and the logo dark, as registered designs mostly are. The search looks at both and keeps each mark's
 *    better answer; the picture itself is unchanged, so nothing already indexed moves.
 */
import sharp from 'sharp';
import { SaxesParser } from 'saxes';
import { ServiceError } from '../errors';
import { ImageHasNoContentError, ImageUnreadableError } from './image-errors';
import type { NormalizedImage } from '../ports';
import { checkSvgBudget, renderSvgWithinDeadline } from './svg-budget';

export const NORMALIZED_SIZE = 224;
export const MAX_IMAGE_SIDE = 4096;
/**
 * Largest per-channel difference from the border colour still counted as border. 24 of 255 absorbs JPEG ringing
 * and faint scanner or paper tones around a logo, while the palest logo colours (say #f0f0a0 on white, 95 apart in
 * blue) stay well clear of it.
 */
export const TRIM_THRESHOLD = 24;
/** SVG has no pixels of its own: rendering the longer side at this size gives the resize real detail to work with. */
export const SVG_RENDER_SIDE = 512;

export interface NormalizeImageOptions {
  /** Side of the square output; 224 unless given. */
  size?: number;
  /**
   * How long an SVG may take to render, waiting for the one render at a time included (SVG_RENDER_DEADLINE_MS
   * unless given). A request keeps the default; a batch job, which nobody waits on and which prepares several
   * images at once, gives itself longer (INGEST_SVG_DEADLINE_MS). The markup's budget bounds the work either way.
   */
  svgDeadlineMs?: number;
}

/** The SVG render deadline of batch jobs (logo ingest): a logo is not refused because the machine was busy. */
export const INGEST_SVG_DEADLINE_MS = 30_000;

type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif' | 'svg';

const WHITE = { r: 255, g: 255, b: 255 };

export async function normalizeImage(bytes: Buffer, options: NormalizeImageOptions = {}): Promise<NormalizedImage> {
  const size = options.size ?? NORMALIZED_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_IMAGE_SIDE) throw new RangeError(`bad output size ${size}`);
  if (bytes.length === 0) throw new ImageUnreadableError('the image is empty');

  const format = sniffFormat(bytes);
  if (!format) throw new ImageUnreadableError('it is not a PNG, JPEG, WebP, GIF or SVG image');
  const input = format === 'svg' ? checkSvgWithBudget(bytes) : bytes;

  try {
    const { width, height } = await declaredDimensions(input, format);
    const density = format === 'svg' ? svgDensity(width, height) : undefined;
    const flat =
      format === 'svg'
        ? await renderSvgWithinDeadline(() => decodeOnWhite(input, density), options.svgDeadlineMs)
        : await decodeOnWhite(input, density);
    return await trimSquareAndResize(flat, size);
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw new ImageUnreadableError(`the ${format.toUpperCase()} data is corrupt or truncated`);
  }
}

/**
 * The checks that need no decoding, for use before a request is charged: the format, and for SVG its safety and
 * its rendering budget (svg-budget.ts). Throws what normalizeImage would throw for the same bytes.
 */
export function checkImageBeforeWork(bytes: Buffer): void {
  if (bytes.length === 0) throw new ImageUnreadableError('the image is empty');
  const format = sniffFormat(bytes);
  if (!format) throw new ImageUnreadableError('it is not a PNG, JPEG, WebP, GIF or SVG image');
  if (format === 'svg') checkSvgWithBudget(bytes);
}

function checkSvgWithBudget(bytes: Buffer): Buffer {
  const text = checkSvg(bytes);
  checkSvgBudget(text.toString('utf8'), SVG_RENDER_SIDE);
  return text;
}

// ---- Step 1 ------------------------------------------------------------------------------------------------------

function sniffFormat(bytes: Buffer): ImageFormat | undefined {
  const startsWith = (signature: number[], at = 0): boolean =>
    bytes.length >= at + signature.length && signature.every((byte, index) => bytes[at + index] === byte);
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith([0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)
    return 'gif';
  if (startsWith([0x52, 0x49, 0x46, 0x46]) && startsWith([0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  if (looksLikeSvg(bytes)) return 'svg';
  return undefined;
}

/** Markup whose first element is `<svg`: a cheap look before the real XML parse of checkSvg. */
function looksLikeSvg(bytes: Buffer): boolean {
  const head = bytes
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const withoutProlog = head.replace(
    /^(\s*(<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>))*\s*/i,
    '',
  );
  return /^<(?:[A-Za-z_][\w.-]*:)?svg[\s>/]/.test(withoutProlog);
}

// ---- Step 2 ------------------------------------------------------------------------------------------------------

const REFUSED_SVG_ELEMENTS = new Map([
  ['script', 'a <script> element'],
  ['foreignobject', 'a <foreignObject> element'],
  ['iframe', 'an <iframe> element'],
  ['object', 'an <object> element'],
  ['embed', 'an <embed> element'],
]);

/** Inline raster images are fine; an inline SVG would be a second document to vet, so it is refused. */
const ALLOWED_DATA_URL = /^data:image\/(png|jpeg|jpg|gif|webp)[;,]/i;

/**
 * SVG is a document format that can pull in other files, run scripts and expand entities. The renderer is given
 * only SVG that references nothing outside itself:
 * - no `<!ENTITY` anywhere and no DOCTYPE internal subset (entity expansion bombs, external entities);
 * - no `<?xml-stylesheet?>`, `<script>`, `<foreignObject>`, `<iframe>`, `<object>`, `<embed>`, no `on*` handlers;
 * - every `href`, `xlink:href` (any prefix) and `src` points inside the document (`#id`) or is an inline raster
 *   `data:image/png|jpeg|gif|webp` URL; the same for every CSS `url(...)`, in attributes and in `<style>`;
 * - no CSS `@import` and no backslash escapes in attributes or `<style>` (they could spell a URL in disguise).
 * The checks read the parsed XML, so character references (`&#104;ttp`) are seen decoded. Returns the text to render.
 */
function checkSvg(bytes: Buffer): Buffer {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.includes('\u0000')) throw new ImageUnreadableError('the SVG contains NUL characters');
  if (/<!ENTITY/i.test(text)) throw new ImageUnreadableError('the SVG declares XML entities');

  const refuse = (what: string): never => {
    throw new ImageUnreadableError(`the SVG contains ${what}; only self-contained SVG is accepted`);
  };
  const checkReference = (value: string, where: string): void => {
    const target = value.trim();
    if (target.startsWith('#') || ALLOWED_DATA_URL.test(target)) return;
    refuse(`an external reference (${where} to ${JSON.stringify(target.slice(0, 80))})`);
  };
  const checkCss = (css: string, where: string): void => {
    if (css.includes('\\')) refuse(`a CSS escape in ${where}`);
    if (/@import/i.test(css)) refuse(`a CSS @import in ${where}`);
    for (const match of css.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\s*\)/gi)) {
      checkReference(match[1] ?? match[2] ?? match[3] ?? '', `url() in ${where}`);
    }
  };

  const parser = new SaxesParser({ xmlns: false, position: false });
  let root: string | undefined;
  let styleDepth = 0;
  parser.on('doctype', (doctype) => {
    if (doctype.includes('[')) refuse('a DOCTYPE internal subset');
  });
  parser.on('processinginstruction', (instruction) => {
    if (instruction.target.toLowerCase() === 'xml-stylesheet') refuse('an xml-stylesheet instruction');
  });
  parser.on('opentag', (tag) => {
    const element = localName(tag.name);
    root ??= element;
    const refused = REFUSED_SVG_ELEMENTS.get(element);
    if (refused) refuse(refused);
    if (element === 'style') styleDepth++;
    for (const [name, value] of Object.entries(tag.attributes)) {
      const attribute = localName(name);
      if (attribute.startsWith('on')) refuse(`an event handler attribute (${name})`);
      if (attribute === 'href' || attribute === 'src') checkReference(value, `${name}=`);
      checkCss(value, `the ${name} attribute`);
    }
  });
  parser.on('closetag', (tag) => {
    if (localName(tag.name) === 'style') styleDepth--;
  });
  const onStyleText = (css: string): void => {
    if (styleDepth > 0) checkCss(css, '<style>');
  };
  parser.on('text', onStyleText);
  parser.on('cdata', onStyleText);

  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof ImageUnreadableError) throw error;
    throw new ImageUnreadableError('the SVG is not well-formed XML');
  }
  if (root !== 'svg') throw new ImageUnreadableError('the SVG document does not start with an <svg> element');
  return Buffer.from(text.replace(/<!DOCTYPE[^>[]*>/i, ''), 'utf8');
}

function localName(qualified: string): string {
  return qualified.slice(qualified.indexOf(':') + 1).toLowerCase();
}

// ---- Steps 3 and 4 -----------------------------------------------------------------------------------------------

async function declaredDimensions(input: Buffer, format: ImageFormat): Promise<{ width: number; height: number }> {
  // Header only, nothing decoded: the pixel limit is ours to check, with a message that says what is wrong.
  const metadata = await sharp(input, { limitInputPixels: false }).metadata();
  if (metadata.format !== format) {
    throw new ImageUnreadableError(`it looks like ${format.toUpperCase()} but does not decode as one`);
  }
  const { width, height } = metadata;
  if (!width || !height) throw new ImageUnreadableError('the image declares no dimensions');
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw new ImageUnreadableError(
      `it declares ${width} x ${height} pixels, more than ${MAX_IMAGE_SIDE} x ${MAX_IMAGE_SIDE}`,
    );
  }
  return { width, height };
}

/** `width` x `height` are what the SVG declares at sharp's default 72 dpi. */
function svgDensity(width: number, height: number): number {
  const density = (72 * SVG_RENDER_SIDE) / Math.max(width, height);
  return Math.min(100_000, Math.max(1, density));
}

interface RawImage {
  data: Buffer;
  width: number;
  height: number;
}

async function decodeOnWhite(input: Buffer, density: number | undefined): Promise<RawImage> {
  const { data, info } = await sharp(input, {
    limitInputPixels: MAX_IMAGE_SIDE * MAX_IMAGE_SIDE,
    autoOrient: true,
    pages: 1,
    page: 0,
    ...(density === undefined ? {} : { density }),
  })
    .flatten({ background: WHITE })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return rgbOf(data, info);
}

// ---- Steps 5 and 6 -----------------------------------------------------------------------------------------------

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The smallest box holding every pixel that differs from the border colour (the top-left pixel) by more than
 * TRIM_THRESHOLD in some channel. A lone differing pixel with no differing 4-neighbour is taken for noise (a JPEG
 * speck) and does not stop the trim. An image with no such pixel (blank) has no box: undefined.
 */
export function contentBox(
  rgb: Uint8Array,
  width: number,
  height: number,
  threshold = TRIM_THRESHOLD,
): Box | undefined {
  const [r0, g0, b0] = [rgb[0]!, rgb[1]!, rgb[2]!];
  const differs = new Uint8Array(width * height);
  for (let pixel = 0, offset = 0; pixel < differs.length; pixel++, offset += 3) {
    differs[pixel] =
      Math.abs(rgb[offset]! - r0) > threshold ||
      Math.abs(rgb[offset + 1]! - g0) > threshold ||
      Math.abs(rgb[offset + 2]! - b0) > threshold
        ? 1
        : 0;
  }
  let left = width;
  let right = -1;
  let top = height;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (!differs[row + x]) continue;
      const neighbour =
        (x > 0 && differs[row + x - 1]) ||
        (x + 1 < width && differs[row + x + 1]) ||
        (y > 0 && differs[row - width + x]) ||
        (y + 1 < height && differs[row + width + x]);
      if (!neighbour) continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
    }
  }
  if (right < 0) return undefined;
  return { left, top, width: right - left + 1, height: bottom - top + 1 };
}

/** Trim (step 5), then pad to a square and resize (step 6), in one pass over the decoded pixels; step 7. */
async function trimSquareAndResize(image: RawImage, size: number): Promise<NormalizedImage> {
  const box = contentBox(image.data, image.width, image.height);
  if (!box) throw new ImageHasNoContentError();
  const squared = (background: { r: number; g: number; b: number }) =>
    sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
      .extract(box)
      .resize(size, size, { fit: 'contain', position: 'centre', background, kernel: 'lanczos3' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  const ground = groundColour(image.data, image.width, image.height);
  const reverse = ground !== undefined && !ground.every((c) => c >= 255 - TRIM_THRESHOLD);
  const [plain, onGround] = await Promise.all([
    squared(WHITE),
    reverse ? squared({ r: ground[0]!, g: ground[1]!, b: ground[2]! }) : undefined,
  ]);
  const asImage = ({ data, info }: { data: Buffer; info: sharp.OutputInfo }) => {
    const rgb = rgbOf(data, info);
    return {
      rgb: new Uint8Array(rgb.data.buffer, rgb.data.byteOffset, rgb.data.length),
      width: rgb.width,
      height: rgb.height,
    };
  };
  const normalized: NormalizedImage = { ...asImage(plain), content: box };
  if (onGround && ground) {
    const square = asImage(onGround);
    normalized.reversed = { ...square, rgb: groundToWhite(square.rgb, ground), content: box };
  }
  return normalized;
}

/** Share of the outer ring of pixels that must share one colour for the picture to stand on a plain ground. */
const PLAIN_GROUND = 0.6;

/**
 * The colour of the picture's plain ground: the per-channel median of its outer ring of pixels, when at least
 * PLAIN_GROUND of the ring lies within TRIM_THRESHOLD of it; undefined for a picture with no plain ground (a photo).
 */
export function groundColour(rgb: Uint8Array, width: number, height: number): [number, number, number] | undefined {
  const ring: number[] = [];
  for (let x = 0; x < width; x++) ring.push(x, (height - 1) * width + x);
  for (let y = 1; y < height - 1; y++) ring.push(y * width, y * width + width - 1);
  const histograms = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)];
  for (const p of ring) for (let c = 0; c < 3; c++) histograms[c]![rgb[p * 3 + c]!]!++;
  const median = histograms.map((histogram) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += histogram[v]!;
      if (seen > ring.length >> 1) return v;
    }
    return 255;
  }) as [number, number, number];
  let same = 0;
  for (const p of ring) {
    const i = p * 3;
    if (
      Math.abs(rgb[i]! - median[0]) <= TRIM_THRESHOLD &&
      Math.abs(rgb[i + 1]! - median[1]) <= TRIM_THRESHOLD &&
      Math.abs(rgb[i + 2]! - median[2]) <= TRIM_THRESHOLD
    )
      same++;
  }
  return same >= PLAIN_GROUND * ring.length ? median : undefined;
}

/**
 * The ground made white: each channel of each pixel becomes 255 less its distance from the ground's channel,
 * stretched so that the 99th percentile of the distances that stand out (the largest channel difference, more than
 * TRIM_THRESHOLD) reaches full contrast. The ground and the padding come out white; a white logo on black comes out
 * black on white, a colour negative in its own colours again, a white logo on red in red on white.
 */
export function groundToWhite(rgb: Uint8Array, ground: readonly number[]): Uint8Array {
  const histogram = new Uint32Array(256);
  let standing = 0;
  for (let i = 0; i < rgb.length; i += 3) {
    const d = Math.max(
      Math.abs(rgb[i]! - ground[0]!),
      Math.abs(rgb[i + 1]! - ground[1]!),
      Math.abs(rgb[i + 2]! - ground[2]!),
    );
    if (d > TRIM_THRESHOLD) {
      histogram[d]!++;
      standing++;
    }
  }
  let full = 255;
  for (let d = 255, seen = 0; d > TRIM_THRESHOLD; d--) {
    seen += histogram[d]!;
    if (seen >= standing * 0.01) {
      full = d;
      break;
    }
  }
  const scale = 255 / Math.max(full, 2 * TRIM_THRESHOLD);
  const out = new Uint8Array(rgb.length);
  for (let i = 0; i < rgb.length; i++) {
    out[i] = 255 - Math.min(255, Math.round(Math.abs(rgb[i]! - ground[i % 3]!) * scale));
  }
  return out;
}

function rgbOf(data: Buffer, info: sharp.OutputInfo): RawImage {
  if (info.channels !== 3 || data.length !== info.width * info.height * 3) {
    throw new Error(`expected 8-bit RGB, got ${info.channels} channels of ${data.length} bytes`);
  }
  return { data, width: info.width, height: info.height };
}
