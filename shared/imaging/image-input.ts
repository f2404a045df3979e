/**
 * The `image_b64` field: strict base64, with or without a `data:image/<type>;base64,` prefix.
 *
 * What is accepted, and why:
 * - Whitespace (spaces, tabs, CR, LF) anywhere is ignored: clients wrap base64 at 64 or 76 columns.
 * - The standard alphabet (RFC 4648 section 4) must be padded: the length without whitespace is a multiple of 4,
 *   with `=` only as the last one or two characters.
 * - The URL-safe alphabet (RFC 4648 section 5, `-` and `_`) is accepted too, padded or not, because common encoders
 *   (Python's urlsafe_b64encode, JWT tooling) produce it and it cannot be confused with the standard one. Mixing
 *   the two alphabets in one string is refused: it only happens when the text was corrupted or spliced. A text of
 *   letters and digits only fits both alphabets, so it too may come unpadded.
 * - Padding that is present must be right: one `=` after a last group of 3 characters, two after a group of 2.
 * - The unused bits of the last character must be zero (the canonical encoding every encoder writes), so one text
 *   decodes to exactly one byte string.
 * - A `data:` prefix must declare an `image/*` media type and `;base64`; anything else is not an image we were sent.
 *
 * Empty or malformed input is `image_unreadable` (400); more than 4 MB once decoded is `payload_too_large` (413),
 * detected from the length before anything is decoded.
 */
import { PayloadTooLargeError } from '../errors';
import { ImageUnreadableError } from './image-errors';

export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;

const DATA_URL_PREFIX = /^data:([^,]*),/i;
const IMAGE_MEDIA_TYPE = /^image\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
const WHITESPACE = /[ \t\r\n\f\v]+/g;
const NEUTRAL_BODY = /^[A-Za-z0-9]*$/;
const STANDARD_BODY = /^[A-Za-z0-9+/]*$/;
const URL_SAFE_BODY = /^[A-Za-z0-9\-_]*$/;
const STANDARD_ONLY = /[+/]/;
const URL_SAFE_ONLY = /[-_]/;

const STANDARD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_SAFE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export interface DecodeBase64ImageOptions {
  /** Largest decoded size accepted; 4 MB unless given. */
  maxBytes?: number;
}

export function decodeBase64Image(text: string, options: DecodeBase64ImageOptions = {}): Buffer {
  const maxBytes = options.maxBytes ?? MAX_IMAGE_BYTES;
  const stripped = stripDataUrlPrefix(text.trim());
  // Most clients send canonical base64 (standard alphabet, padded, no whitespace): it is exactly what encoding its
  // own bytes gives back, which one decode and one encode check in about a millisecond for a 600 KB image. Anything
  // else takes the checks below, which say what is wrong.
  if (stripped.length > 0 && stripped.length <= Math.ceil(maxBytes / 3) * 4) {
    const bytes = Buffer.from(stripped, 'base64');
    if (bytes.length > 0 && bytes.length <= maxBytes && bytes.toString('base64') === stripped) return bytes;
  }
  const encoded = stripped.replace(WHITESPACE, '');
  if (encoded.length === 0) throw new ImageUnreadableError('image_b64 is empty');

  const firstPad = encoded.indexOf('=');
  const body = firstPad === -1 ? encoded : encoded.slice(0, firstPad);
  const padding = firstPad === -1 ? '' : encoded.slice(firstPad);
  if (!/^={1,2}$/.test(padding) && padding !== '') {
    throw new ImageUnreadableError('image_b64 has "=" padding in the middle or more than two "=" at the end');
  }

  const alphabet = alphabetOf(body);
  if (alphabet === 'standard' && (body.length + padding.length) % 4 !== 0) {
    throw new ImageUnreadableError('image_b64 is not correctly padded: its length must be a multiple of 4');
  }
  const tail = body.length % 4;
  if (tail === 1) throw new ImageUnreadableError('image_b64 is truncated (one character too many or too few)');
  if (padding !== '' && padding.length !== 4 - tail) {
    throw new ImageUnreadableError('image_b64 has the wrong number of "=" padding characters');
  }
  if (tail !== 0) assertCanonicalLastCharacter(body, tail, alphabet);

  const decodedLength = Math.floor(body.length / 4) * 3 + (tail === 0 ? 0 : tail - 1);
  if (decodedLength > maxBytes) throw new PayloadTooLargeError(maxBytes, decodedLength);

  const bytes = Buffer.from(body, alphabet === 'url-safe' ? 'base64url' : 'base64');
  if (bytes.length !== decodedLength) throw new ImageUnreadableError('image_b64 is not valid base64');
  return bytes;
}

function stripDataUrlPrefix(text: string): string {
  if (!/^data:/i.test(text)) return text;
  const match = DATA_URL_PREFIX.exec(text);
  if (!match) throw new ImageUnreadableError('the data: prefix has no "," before the base64 data');
  const [mediaType = '', ...parameters] = match[1]!.split(';').map((part) => part.trim());
  if (!IMAGE_MEDIA_TYPE.test(mediaType)) {
    throw new ImageUnreadableError(
      `the data: prefix must name an image type (data:image/png;base64,...), not "${mediaType}"`,
    );
  }
  if (parameters.length === 0 || parameters[parameters.length - 1]!.toLowerCase() !== 'base64') {
    throw new ImageUnreadableError('the data: prefix must end in ";base64,"');
  }
  return text.slice(match[0].length);
}

/** `neutral`: only letters and digits, valid in both alphabets (so, like URL-safe, it may come unpadded). */
type Alphabet = 'standard' | 'url-safe' | 'neutral';

function alphabetOf(body: string): Alphabet {
  if (NEUTRAL_BODY.test(body)) return 'neutral';
  if (STANDARD_BODY.test(body)) return 'standard';
  if (URL_SAFE_BODY.test(body)) return 'url-safe';
  if (STANDARD_ONLY.test(body) && URL_SAFE_ONLY.test(body)) {
    throw new ImageUnreadableError('image_b64 mixes the standard (+/) and URL-safe (-_) base64 alphabets');
  }
  const bad = [...body].find(
    (character) => !STANDARD_ALPHABET.includes(character) && !URL_SAFE_ALPHABET.includes(character),
  );
  throw new ImageUnreadableError(`image_b64 contains a character that is not base64: ${JSON.stringify(bad)}`);
}

/** A last group of 2 (or 3) characters carries 4 (or 2) bits that no byte uses: a canonical encoder writes zeros. */
function assertCanonicalLastCharacter(body: string, tail: number, alphabet: Alphabet): void {
  const last = body[body.length - 1]!;
  const value = (alphabet === 'url-safe' ? URL_SAFE_ALPHABET : STANDARD_ALPHABET).indexOf(last);
  const unusedBits = tail === 2 ? 0b1111 : 0b11;
  if ((value & unusedBits) !== 0) {
    throw new ImageUnreadableError('image_b64 is not canonical base64 (its last character has stray bits)');
  }
}
