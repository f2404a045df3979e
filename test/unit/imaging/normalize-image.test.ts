/**
 * Real sharp on real PNG, JPEG, WebP, GIF and SVG made in the tests.
 *
 * Over 400 lines on purpose: one function (image normalisation) over every format and limit.
 */
import fc from 'fast-check';
import sharp from 'sharp';
import { ImageHasNoContentError, ImageUnreadableError } from '../../../shared/imaging/image-errors';
import { contentBox, normalizeImage, TRIM_THRESHOLD } from '../../../shared/imaging/normalize-image';
import {
  animatedGif,
  BLUE,
  distance,
  pixelAt,
  pngDeclaring,
  RED,
  markPng,
  rectanglePng,
  solidPng,
  transparentLogoPng,
  WHITE,
  type Rgb,
} from './test-images';

const SIZE = 224;
const at = (rgb: Uint8Array, x: number, y: number): Rgb => pixelAt(rgb, SIZE, x, y);

async function refusalOf(bytes: Buffer): Promise<string> {
  try {
    await normalizeImage(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(ImageUnreadableError);
    expect((error as ImageUnreadableError).status).toBe(400);
    return String((error as ImageUnreadableError).details?.reason);
  }
  throw new Error('expected the image to be refused');
}

const svg = (body: string, attributes = 'viewBox="0 0 24 24"'): Buffer =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ${attributes}>${body}</svg>`,
  );

describe('normalizeImage: each accepted format, decoded for real', () => {
  it('puts a PNG logo on a transparent background onto white, trimmed, centred in a 224 x 224 RGB square', async () => {
    // Arrange: a red 100 x 50 logo at (50, 50) of a transparent 300 x 200 canvas.
    const png = await transparentLogoPng();
    // Act
    const image = await normalizeImage(png);
    // Assert: trimmed to 100 x 50, scaled to 224 x 112, white bands of 56 rows above and below.
    expect(image.width).toBe(SIZE);
    expect(image.height).toBe(SIZE);
    expect(image.rgb).toHaveLength(SIZE * SIZE * 3);
    expect(distance(at(image.rgb, 112, 112), RED)).toBeLessThanOrEqual(2);
    expect(distance(at(image.rgb, 3, 112), RED)).toBeLessThanOrEqual(10); // the logo touches the left edge: trimmed
    expect(distance(at(image.rgb, 220, 112), RED)).toBeLessThanOrEqual(10);
    expect(distance(at(image.rgb, 112, 60), RED)).toBeLessThanOrEqual(10);
    expect(at(image.rgb, 112, 40)).toEqual(WHITE); // padding, white and not black (transparent black flattened)
    expect(at(image.rgb, 112, 200)).toEqual(WHITE);
    expect(at(image.rgb, 0, 0)).toEqual(WHITE);
  });

  it('reads a JPEG and trims its white border', async () => {
    // Arrange: a blue 120 x 120 square in the middle of a white 200 x 200 JPEG.
    const png = await rectanglePng({
      width: 200,
      height: 200,
      background: { r: 255, g: 255, b: 255, alpha: 1 },
      rect: { left: 40, top: 40, width: 120, height: 120, colour: '#0000ff' },
    });
    const jpeg = await sharp(png).jpeg({ quality: 90 }).toBuffer();
    // Act
    const image = await normalizeImage(jpeg);
    // Assert: the square fills the output, corners included.
    expect(distance(at(image.rgb, 6, 6), BLUE)).toBeLessThanOrEqual(40);
    expect(distance(at(image.rgb, 217, 217), BLUE)).toBeLessThanOrEqual(40);
    expect(distance(at(image.rgb, 112, 112), BLUE)).toBeLessThanOrEqual(10);
  });

  it.each([
    ['lossless', { lossless: true }],
    ['lossy', { quality: 80 }],
  ])('reads a %s WebP with alpha', async (_kind, webpOptions) => {
    // Arrange
    const webp = await sharp(await transparentLogoPng())
      .webp(webpOptions)
      .toBuffer();
    // Act
    const image = await normalizeImage(webp);
    // Assert
    expect(distance(at(image.rgb, 112, 112), RED)).toBeLessThanOrEqual(12);
    expect(at(image.rgb, 112, 20)).toEqual(WHITE);
  });

  it('uses only the first frame of an animated GIF', async () => {
    // Arrange: frame 1 red, frame 2 blue.
    const gif = await animatedGif('#ff0000', '#0000ff');
    expect((await sharp(gif).metadata()).pages).toBe(2);
    // Act
    const image = await normalizeImage(gif);
    // Assert
    expect(distance(at(image.rgb, 112, 112), RED)).toBeLessThanOrEqual(2);
    expect(distance(at(image.rgb, 200, 200), RED)).toBeLessThanOrEqual(2);
  });

  it('renders an SVG with no pixel size crisply, not as an upscaled 24 px icon', async () => {
    // Arrange: a 24 x 24 viewBox with a blue disc, the form of simple-icons logos.
    const icon = svg('<circle cx="12" cy="12" r="10" fill="#0000ff"/>');
    // Act
    const image = await normalizeImage(icon);
    // Assert: the disc is trimmed to fill the square; corners stay white; its edge is a few pixels wide at most.
    expect(at(image.rgb, 112, 112)).toEqual(BLUE);
    expect(distance(at(image.rgb, 112, 2), BLUE)).toBeLessThanOrEqual(40);
    expect(at(image.rgb, 2, 2)).toEqual(WHITE);
    const row = Array.from({ length: SIZE }, (_, x) => at(image.rgb, x, 30));
    const blurred = row.filter((pixel) => distance(pixel, WHITE) > 20 && distance(pixel, BLUE) > 20);
    expect(blurred.length).toBeLessThanOrEqual(4);
  });

  it('accepts self-contained SVG: local gradients and uses, an inline PNG, a bare DOCTYPE, comments', async () => {
    // Arrange
    const dot = (await solidPng(2, 2, '#00ff00')).toString('base64');
    const document = Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n' +
        '<!-- exported by a design tool -->\n' +
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64">' +
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient>' +
        '<rect id="r" width="10" height="10"/></defs>' +
        '<style>.a { fill: url(#g); }</style>' +
        '<rect class="a" x="8" y="8" width="48" height="48" style="stroke: url(\'#g\')"/>' +
        '<use xlink:href="#r" x="50" y="50"/>' +
        `<image href="data:image/png;base64,${dot}" x="0" y="0" width="4" height="4"/>` +
        '</svg>',
    );
    // Act
    const image = await normalizeImage(document);
    // Assert
    expect(image.rgb).toHaveLength(SIZE * SIZE * 3);
    expect(distance(at(image.rgb, 112, 112), WHITE)).toBeGreaterThan(50);
  });

  it('flattens semi-transparent pixels onto white', async () => {
    // Arrange: a red block at half opacity on a transparent canvas.
    const png = await rectanglePng({
      width: 50,
      height: 50,
      background: { r: 0, g: 0, b: 0, alpha: 0 },
      rect: { left: 10, top: 10, width: 30, height: 30, colour: 'rgba(255, 0, 0, 0.5)' },
    });
    // Act
    const image = await normalizeImage(png);
    // Assert
    expect(distance(at(image.rgb, 112, 112), [255, 128, 128])).toBeLessThanOrEqual(2);
  });

  it('turns greyscale and 16-bit PNGs into 8-bit RGB', async () => {
    // Arrange
    const grey = await sharp(await transparentLogoPng())
      .flatten({ background: '#ffffff' })
      .toColourspace('b-w')
      .png()
      .toBuffer();
    const deep = await sharp(await transparentLogoPng())
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    expect((await sharp(grey).metadata()).channels).toBe(1);
    expect((await sharp(deep).metadata()).depth).toBe('ushort');
    // Act
    const [fromGrey, fromDeep] = await Promise.all([normalizeImage(grey), normalizeImage(deep)]);
    // Assert
    for (const image of [fromGrey, fromDeep]) expect(image.rgb).toHaveLength(SIZE * SIZE * 3);
    const [r, g, b] = at(fromGrey.rgb, 112, 112);
    expect(r).toBe(g);
    expect(g).toBe(b);
    expect(distance(at(fromDeep.rgb, 112, 112), RED)).toBeLessThanOrEqual(2);
  });

  it('applies the EXIF orientation of a JPEG', async () => {
    // Arrange: stored landscape, red square left and blue square right; orientation 6 shows it turned clockwise,
    // so red on top and blue below.
    const stored = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#ffffff' } })
      .composite([
        { input: await solidPng(50, 50, '#ff0000'), left: 20, top: 25 },
        { input: await solidPng(50, 50, '#0000ff'), left: 130, top: 25 },
      ])
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    // Act
    const image = await normalizeImage(stored);
    // Assert
    expect(distance(at(image.rgb, 112, 20), RED)).toBeLessThanOrEqual(30);
    expect(distance(at(image.rgb, 112, 204), BLUE)).toBeLessThanOrEqual(30);
    expect(distance(at(image.rgb, 20, 112), WHITE)).toBeLessThanOrEqual(10);
  });

  it('honours the size option', async () => {
    const image = await normalizeImage(await transparentLogoPng(), { size: 32 });
    expect([image.width, image.height, image.rgb.length]).toEqual([32, 32, 32 * 32 * 3]);
  });
});

describe('normalizeImage: trimming', () => {
  it('trims a near-uniform border of any colour', async () => {
    // Arrange: a black square on an off-white (#f4f4f4) canvas, placed off-centre.
    const png = await rectanglePng({
      width: 240,
      height: 200,
      background: { r: 244, g: 244, b: 244, alpha: 1 },
      rect: { left: 30, top: 100, width: 80, height: 80, colour: '#000000' },
    });
    // Act
    const image = await normalizeImage(png);
    // Assert: the square alone fills the output.
    for (const [x, y] of [
      [3, 3],
      [220, 3],
      [3, 220],
      [112, 112],
    ] as const) {
      expect(distance(at(image.rgb, x, y), [0, 0, 0])).toBeLessThanOrEqual(12);
    }
  });

  it('keeps a pale logo: a colour beyond the threshold is content', async () => {
    // Arrange: pale yellow (#f0f0a0, 95 below white in blue) on white.
    const png = await rectanglePng({
      width: 200,
      height: 200,
      background: { r: 255, g: 255, b: 255, alpha: 1 },
      rect: { left: 50, top: 50, width: 100, height: 100, colour: '#f0f0a0' },
    });
    // Act
    const image = await normalizeImage(png);
    // Assert
    expect(distance(at(image.rgb, 5, 5), [240, 240, 160])).toBeLessThanOrEqual(4);
  });

  it.each([
    ['white', '#ffffff'],
    ['red', '#ff0000'],
  ])('refuses a blank %s image as having no content', async (_name, colour) => {
    // Arrange
    const png = await solidPng(300, 100, colour);
    // Act
    const outcome = normalizeImage(png);
    // Assert
    await expect(outcome).rejects.toBeInstanceOf(ImageHasNoContentError);
    await expect(outcome).rejects.toMatchObject({ status: 422, code: 'image_has_no_content' });
  });

  it('refuses an image whose only mark is a lone speck the trim takes for noise', async () => {
    // Arrange: white 64 x 64 with one black pixel.
    const rgb = Buffer.alloc(64 * 64 * 3, 255);
    rgb.fill(0, (20 * 64 + 30) * 3, (20 * 64 + 30) * 3 + 3);
    const png = await sharp(rgb, { raw: { width: 64, height: 64, channels: 3 } })
      .png()
      .toBuffer();
    // Act / Assert
    await expect(normalizeImage(png)).rejects.toBeInstanceOf(ImageHasNoContentError);
  });

  it('finds exactly the rectangle drawn on any background (contentBox)', () => {
    fc.assert(
      fc.property(
        fc
          .record({
            width: fc.integer({ min: 3, max: 40 }),
            height: fc.integer({ min: 3, max: 40 }),
            background: fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)),
            channel: fc.integer({ min: 0, max: 2 }),
          })
          .chain((canvas) =>
            fc
              .record({
                canvas: fc.constant(canvas),
                left: fc.integer({ min: 0, max: canvas.width - 2 }),
                top: fc.integer({ min: 0, max: canvas.height - 2 }),
              })
              .chain((placed) =>
                fc.record({
                  placed: fc.constant(placed),
                  width: fc.integer({ min: 1, max: canvas.width - placed.left }),
                  height: fc.integer({ min: 2, max: canvas.height - placed.top }),
                }),
              ),
          ),
        ({ placed: { canvas, left, top }, width, height }) => {
          // Arrange: the rectangle differs from the background in one channel, by more than the threshold.
          const rgb = new Uint8Array(canvas.width * canvas.height * 3);
          const colour = [...canvas.background];
          const value = colour[canvas.channel]!;
          colour[canvas.channel] = value > 127 ? value - TRIM_THRESHOLD - 1 : value + TRIM_THRESHOLD + 1;
          for (let y = 0; y < canvas.height; y++) {
            for (let x = 0; x < canvas.width; x++) {
              const inside = x >= left && x < left + width && y >= top && y < top + height;
              rgb.set(inside ? colour : canvas.background, (y * canvas.width + x) * 3);
            }
          }
          // The top-left pixel is the background only when the rectangle does not cover it.
          fc.pre(left > 0 || top > 0);
          // Act
          const box = contentBox(rgb, canvas.width, canvas.height);
          // Assert
          expect(box).toEqual({ left, top, width, height });
        },
      ),
    );
  });

  it('ignores a lone speck of noise in the border', () => {
    // Arrange: white 20 x 20, one black pixel at (1, 1), a black 4 x 4 block at (8, 8).
    const rgb = new Uint8Array(20 * 20 * 3).fill(255);
    const paint = (x: number, y: number): void => rgb.set([0, 0, 0], (y * 20 + x) * 3);
    paint(1, 1);
    for (let y = 8; y < 12; y++) for (let x = 8; x < 12; x++) paint(x, y);
    // Act
    const box = contentBox(rgb, 20, 20);
    // Assert
    expect(box).toEqual({ left: 8, top: 8, width: 4, height: 4 });
  });
});

describe('normalizeImage: what is refused', () => {
  it('refuses an empty file', async () => {
    expect(await refusalOf(Buffer.alloc(0))).toMatch(/empty/);
  });

  it.each([
    ['a text file', Buffer.from('Dear seller,\nthis is a text file posted as an image.\n')],
    ['an HTML page', Buffer.from('<!doctype html><html><body><svg></svg></body></html>')],
    ['random bytes', Buffer.from(Array.from({ length: 256 }, (_, index) => (index * 73 + 11) % 256))],
  ])('refuses %s', async (_name, bytes) => {
    expect(await refusalOf(bytes)).toMatch(/not a PNG, JPEG, WebP, GIF or SVG image/);
  });

  it('refuses formats sharp can read but the API does not take (TIFF)', async () => {
    const tiff = await sharp(await solidPng(10, 10, '#ff0000'))
      .tiff()
      .toBuffer();
    expect(await refusalOf(tiff)).toMatch(/not a PNG, JPEG, WebP, GIF or SVG image/);
  });

  it('refuses a truncated PNG', async () => {
    // Arrange: noise does not compress, so half the file is half the pixels.
    const noise = Buffer.from(Array.from({ length: 64 * 64 * 3 }, (_, index) => (index * 2654435761) >>> 24));
    const png = await sharp(noise, { raw: { width: 64, height: 64, channels: 3 } })
      .png()
      .toBuffer();
    // Act / Assert
    expect(await refusalOf(png.subarray(0, png.length >> 1))).toMatch(/PNG data is corrupt or truncated/);
  });

  it('refuses a pixel bomb (a tiny PNG declaring 50,000 x 50,000) from its header, fast', async () => {
    // Arrange
    const bomb = await pngDeclaring(50_000, 50_000);
    expect(bomb.length).toBeLessThan(100);
    // Act
    const started = performance.now();
    const reason = await refusalOf(bomb);
    const elapsed = performance.now() - started;
    // Assert
    expect(reason).toMatch(/declares 50000 x 50000 pixels, more than 4096 x 4096/);
    expect(elapsed).toBeLessThan(3_000); // refused from the header: decoding it would take far longer, or fail
  });

  it('takes 4096 pixels on a side and refuses 4097', async () => {
    const [ok, tooWide] = await Promise.all([markPng(4096, 4, '#ff0000'), pngDeclaring(4097, 1)]);
    expect((await normalizeImage(ok)).rgb).toHaveLength(SIZE * SIZE * 3);
    expect(await refusalOf(tooWide)).toMatch(/declares 4097 x 1 pixels/);
  });

  it('refuses an SVG declaring 50,000 x 50,000 pixels', async () => {
    const bomb = svg('<rect width="10" height="10"/>', 'width="50000" height="50000"');
    expect(await refusalOf(bomb)).toMatch(/declares 50000 x 50000 pixels/);
  });

  it.each([
    [
      'an <image> href to a URL',
      '<image href="http://169.254.169.254/latest/meta-data/" width="1" height="1"/>',
      /external reference/,
    ],
    ['an xlink:href to a file', '<use xlink:href="file:///etc/passwd#x"/>', /external reference \(xlink:href=/],
    ['a protocol-relative href', '<image href="//example.com/a.png"/>', /external reference/],
    ['a relative href', '<image href="logo.png"/>', /external reference/],
    [
      'an href spelled with character references',
      '<image href="&#104;ttp://10.0.0.1/x.png"/>',
      /"http:\/\/10\.0\.0\.1/,
    ],
    ['a link', '<a href="https://example.com/"><rect width="5" height="5"/></a>', /external reference/],
    ['an inline SVG (a second document)', '<image href="data:image/svg+xml;base64,PHN2Zy8+"/>', /external reference/],
    [
      'a url() in a presentation attribute',
      '<rect width="5" height="5" fill="url(http://example.com/p.svg#g)"/>',
      /url\(\) in the fill attribute/,
    ],
    [
      'a url() in a style attribute',
      '<rect width="5" height="5" style="fill:url( \'https://x.test/g\' )"/>',
      /url\(\) in the style attribute/,
    ],
    ['a url() in <style>', '<style>rect { fill: url(https://example.com/a.svg#g) }</style>', /url\(\) in <style>/],
    [
      'a url() in a CDATA <style>',
      '<style><![CDATA[ @font-face { src: url(https://example.com/f.woff) } ]]></style>',
      /url\(\) in <style>/,
    ],
    ['a CSS @import', '<style>@import "https://example.com/a.css";</style>', /@import/],
    ['a CSS escape', '<style>rect { fill: u\\72l(https://x.test/) }</style>', /CSS escape/],
    ['a <script>', '<script>alert(1)</script>', /<script>/],
    ['a namespaced script', '<svg:script xmlns:svg="http://www.w3.org/2000/svg">1</svg:script>', /<script>/],
    [
      'a <foreignObject>',
      '<foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>',
      /<foreignObject>/,
    ],
    ['an event handler', '<rect width="5" height="5" onload="alert(1)"/>', /event handler attribute \(onload\)/],
  ])('refuses an SVG with %s', async (_name, body, reason) => {
    expect(await refusalOf(svg(body))).toMatch(reason);
  });

  it('refuses an SVG that declares entities (external or billion laughs)', async () => {
    // Arrange
    const external = Buffer.from(
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>' +
        '<svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>',
    );
    const laughs = Buffer.from(
      '<!DOCTYPE svg [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>' +
        '<svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>',
    );
    // Act / Assert
    expect(await refusalOf(external)).toMatch(/declares XML entities/);
    expect(await refusalOf(laughs)).toMatch(/declares XML entities/);
  });

  it('refuses an SVG with a DOCTYPE internal subset or an xml-stylesheet instruction', async () => {
    const subset = Buffer.from('<!DOCTYPE svg [<!ATTLIST svg a CDATA "b">]><svg xmlns="http://www.w3.org/2000/svg"/>');
    const stylesheet = Buffer.from(
      '<?xml-stylesheet href="https://example.com/a.css" type="text/css"?><svg xmlns="http://www.w3.org/2000/svg"/>',
    );
    expect(await refusalOf(subset)).toMatch(/DOCTYPE internal subset/);
    expect(await refusalOf(stylesheet)).toMatch(/xml-stylesheet/);
  });

  it('refuses an SVG that is not well-formed XML', async () => {
    expect(await refusalOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>'))).toMatch(
      /not well-formed XML/,
    );
  });
});
