import fc from 'fast-check';
import { PayloadTooLargeError } from '../../../shared/errors';
import { ImageUnreadableError } from '../../../shared/imaging/image-errors';
import { decodeBase64Image, MAX_IMAGE_BYTES } from '../../../shared/imaging/image-input';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function reasonOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof ImageUnreadableError) return String(error.details?.reason);
    throw error;
  }
  throw new Error('expected ImageUnreadableError, nothing was thrown');
}

describe('decodeBase64Image: what is accepted', () => {
  it('decodes standard padded base64 back to the same bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), (bytes) => {
        // Arrange
        const text = Buffer.from(bytes).toString('base64');
        // Act
        const decoded = decodeBase64Image(text);
        // Assert
        expect(decoded.equals(Buffer.from(bytes))).toBe(true);
      }),
    );
  });

  it('ignores whitespace and line breaks anywhere (MIME-wrapped base64)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 300 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(' ', '\n', '\r\n', '\t')), { maxLength: 20 }),
        (bytes, breaks) => {
          // Arrange
          let text = Buffer.from(bytes).toString('base64');
          for (const [at, space] of breaks) {
            const position = at % (text.length + 1);
            text = text.slice(0, position) + space + text.slice(position);
          }
          // Act
          const decoded = decodeBase64Image(`\n  ${text}  \n`);
          // Assert
          expect(decoded.equals(Buffer.from(bytes))).toBe(true);
        },
      ),
    );
  });

  it('decodes the URL-safe alphabet, padded or not', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.boolean(), (bytes, padded) => {
        // Arrange
        const unpadded = Buffer.from(bytes).toString('base64url');
        const text = padded ? unpadded.padEnd(Math.ceil(unpadded.length / 4) * 4, '=') : unpadded;
        // Act
        const decoded = decodeBase64Image(text);
        // Assert
        expect(decoded.equals(Buffer.from(bytes))).toBe(true);
      }),
    );
  });

  it.each([
    'data:image/png;base64,',
    'DATA:IMAGE/PNG;BASE64,',
    'data:image/svg+xml;charset=utf-8;base64,',
    'data:image/jpeg; base64,',
  ])('strips the prefix %s', (prefix) => {
    // Arrange
    const text = prefix + PNG_SIGNATURE.toString('base64');
    // Act
    const decoded = decodeBase64Image(text);
    // Assert
    expect(decoded.equals(PNG_SIGNATURE)).toBe(true);
  });

  it('accepts exactly 4 MB', () => {
    // Arrange
    const text = Buffer.alloc(MAX_IMAGE_BYTES, 7).toString('base64');
    // Act
    const decoded = decodeBase64Image(text);
    // Assert
    expect(decoded.length).toBe(MAX_IMAGE_BYTES);
  });
});

describe('decodeBase64Image: what is refused', () => {
  it.each([
    ['', /empty/],
    ['   \n\t ', /empty/],
    ['data:image/png;base64,', /empty/],
    ['data:image/png;base64,  \n', /empty/],
  ])('refuses the empty image %j', (text, reason) => {
    expect(reasonOf(() => decodeBase64Image(text))).toMatch(reason);
  });

  it.each([
    ['iVBORw0K!GgoAAAANSUhEUg==', /not base64: "!"/],
    ['aGVsbG8gd29ybGQ*', /not base64: "\*"/],
    ['QQ==QQ==', /padding in the middle/],
    ['QQ===', /more than two "="/],
    ['QUJD=', /wrong number of "=" padding/],
    ['QUJDR', /truncated/],
    ['Q', /truncated/],
    ['+/8', /not correctly padded/],
    ['QR==', /not canonical/],
    ['QUF=', /not canonical/],
    ['ab+_', /mixes the standard/],
    ['=', /wrong number of "=" padding/],
  ])('refuses the malformed base64 %j', (text, reason) => {
    expect(reasonOf(() => decodeBase64Image(text))).toMatch(reason);
  });

  it.each([
    ['data:text/plain;base64,aGVsbG8=', /must name an image type/],
    ['data:application/octet-stream;base64,aGVsbG8=', /must name an image type/],
    ['data:image/png,hello', /must end in ";base64,"/],
    ['data:image/png;base64', /no ","/],
  ])('refuses the data: prefix of %j', (text, reason) => {
    expect(reasonOf(() => decodeBase64Image(text))).toMatch(reason);
  });

  it('decodes +/8=, the correctly padded form of the refused +/8, to two bytes', () => {
    expect([...decodeBase64Image('+/8=')]).toEqual([0xfb, 0xff]);
  });

  it('refuses more than 4 MB decoded with payload_too_large, before decoding', () => {
    // Arrange
    const text = Buffer.alloc(MAX_IMAGE_BYTES + 1, 7).toString('base64');
    // Act
    let thrown: unknown;
    try {
      decodeBase64Image(text);
    } catch (error) {
      thrown = error;
    }
    // Assert
    expect(thrown).toBeInstanceOf(PayloadTooLargeError);
    expect((thrown as PayloadTooLargeError).status).toBe(413);
    expect((thrown as PayloadTooLargeError).details).toEqual({
      limit_bytes: MAX_IMAGE_BYTES,
      actual_bytes: MAX_IMAGE_BYTES + 1,
    });
  });

  it('honours a smaller maxBytes', () => {
    expect(() => decodeBase64Image('AAAAAAAA', { maxBytes: 5 })).toThrow(PayloadTooLargeError);
    expect(decodeBase64Image('AAAAAAAA', { maxBytes: 6 })).toHaveLength(6);
  });

  it('answers every string with bytes or an image_unreadable / payload_too_large error, nothing else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 64 }), (text) => {
        try {
          expect(decodeBase64Image(text)).toBeInstanceOf(Buffer);
        } catch (error) {
          expect(error instanceof ImageUnreadableError || error instanceof PayloadTooLargeError).toBe(true);
        }
      }),
    );
  });

  it('gives image_unreadable the 400 status', () => {
    expect(() => decodeBase64Image('%%%%')).toThrow(expect.objectContaining({ status: 400, code: 'image_unreadable' }));
  });
});
