import { TextDecoder } from 'node:util';
import { BatchEncodingError } from './batch-errors';

export type BatchInput = NodeJS.ReadableStream | AsyncIterable<Buffer | Uint8Array | string>;

/**
 * Turns a byte stream into text chunk by chunk, never holding more than one chunk.
 *
 * Encoding policy, chosen so that a mark is never stored with silently garbled letters:
 * - a byte order mark wins (UTF-8, UTF-16LE, UTF-16BE), and XML written in UTF-16 without one is recognised by its
 *   first characters, as the XML specification describes;
 * - otherwise XML follows its declaration: UTF-8 (also the default), US-ASCII, or ISO-8859-1 / Windows-1252, which
 *   are decoded correctly; any other declared encoding is refused;
 * - bytes that are not valid in the chosen encoding end the file with a BatchEncodingError naming the line: a
 *   file that says UTF-8 but holds Latin-1 bytes is refused rather than guessed at.
 * Strings pass through untouched: whoever produced them already decoded the bytes.
 */

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

const SNIFF_BYTES = 512;

const DECLARED_ENCODINGS: Readonly<Record<string, Encoding>> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'us-ascii': 'utf-8',
  ascii: 'utf-8',
  'iso-8859-1': 'windows-1252',
  'iso_8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  latin1: 'windows-1252',
  'latin-1': 'windows-1252',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
};

interface Detected {
  encoding: Encoding;
  bomLength: number;
}

function detectEncoding(head: Uint8Array, isXml: boolean): Detected {
  const [b0, b1, b2, b3] = head;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return { encoding: 'utf-8', bomLength: 3 };
  if (b0 === 0xff && b1 === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (b0 === 0xfe && b1 === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  if (!isXml) return { encoding: 'utf-8', bomLength: 0 };
  if (b0 === 0x3c && b1 === 0x00 && b2 === 0x3f && b3 === 0x00) return { encoding: 'utf-16le', bomLength: 0 };
  if (b0 === 0x00 && b1 === 0x3c && b2 === 0x00 && b3 === 0x3f) return { encoding: 'utf-16be', bomLength: 0 };

  const declaration = /^<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(
    Buffer.from(head).toString('latin1'),
  );
  const declared = declaration?.[1]?.toLowerCase();
  if (declared === undefined) return { encoding: 'utf-8', bomLength: 0 };
  const encoding = DECLARED_ENCODINGS[declared];
  if (encoding !== undefined) return { encoding, bomLength: 0 };
  if (declared.startsWith('utf-16')) {
    throw new BatchEncodingError(
      `the XML declaration says ${declaration?.[1]} but the bytes are not UTF-16 (no byte order mark, single-byte text)`,
      1,
    );
  }
  throw new BatchEncodingError(
    `the XML declaration says encoding "${declaration?.[1]}"; supported are UTF-8, UTF-16, US-ASCII and ISO-8859-1`,
    1,
  );
}

/** Length of the prefix that ends on a whole UTF-8 character; the rest waits for the next chunk. */
function wholeUtf8Length(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let back = 1; back <= Math.min(3, end); back += 1) {
    const byte = bytes[end - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    const expected = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return expected > back ? end - back : end;
  }
  return end;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}

/** The text before the first bad byte, and the error naming that byte's line. */
function invalidUtf8(bytes: Uint8Array, linesBefore: number): { text: string; error: BatchEncodingError } {
  const lenient = new TextDecoder('utf-8').decode(bytes);
  const firstBad = lenient.indexOf('\uFFFD');
  const validPrefix = firstBad === -1 ? lenient : lenient.slice(0, firstBad);
  const badByte = bytes[Buffer.byteLength(validPrefix, 'utf8')];
  const shown = badByte === undefined ? 'an incomplete character at the end' : `byte 0x${badByte.toString(16)}`;
  const error = new BatchEncodingError(
    `${shown} is not valid UTF-8; save the file as UTF-8, or declare its real encoding ` +
      '(for example <?xml version="1.0" encoding="ISO-8859-1"?>)',
    linesBefore + countNewlines(validPrefix) + 1,
  );
  return { text: validPrefix, error };
}

export async function* decodeBatchText(
  input: BatchInput,
  options: { isXml: boolean },
): AsyncGenerator<string, void, undefined> {
  let pending = new Uint8Array(0);
  let detected: Detected | undefined;
  let streamingDecoder: TextDecoder | undefined;
  const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
  let linesBefore = 0;

  /** Text up to the first undecodable byte; the error, if any, is raised once that text has been handed over. */
  const decodeBytes = (bytes: Uint8Array, final: boolean): { text: string; error?: BatchEncodingError } => {
    if (detected === undefined) throw new Error('encoding must be detected before decoding');
    if (detected.encoding !== 'utf-8') {
      streamingDecoder ??= new TextDecoder(detected.encoding, { fatal: true });
      try {
        return { text: streamingDecoder.decode(bytes, { stream: !final }) };
      } catch {
        const error = new BatchEncodingError(
          `the bytes are not valid ${detected.encoding.toUpperCase()}`,
          linesBefore + 1,
        );
        return { text: '', error };
      }
    }
    // Splitting on whole characters ourselves (rather than the decoder's stream mode) lets an error name the line.
    const wholeLength = final ? bytes.length : wholeUtf8Length(bytes);
    const whole = bytes.subarray(0, wholeLength);
    pending = bytes.slice(wholeLength);
    try {
      return { text: utf8Decoder.decode(whole) };
    } catch {
      return invalidUtf8(whole, linesBefore);
    }
  };

  const countLines = (text: string): string => {
    linesBefore += countNewlines(text);
    return text;
  };

  for await (const chunk of input as AsyncIterable<Buffer | Uint8Array | string>) {
    if (typeof chunk === 'string') {
      if (chunk.length > 0) yield countLines(chunk);
      continue;
    }
    if (chunk.length === 0) continue;
    let bytes = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    pending = new Uint8Array(0);
    if (detected === undefined) {
      if (bytes.length < SNIFF_BYTES) {
        pending = Uint8Array.from(bytes);
        continue;
      }
      detected = detectEncoding(bytes, options.isXml);
      bytes = bytes.subarray(detected.bomLength);
    }
    const { text, error } = decodeBytes(bytes, false);
    if (text.length > 0) yield countLines(text);
    if (error) throw error;
  }

  if (detected === undefined) {
    if (pending.length === 0) return;
    detected = detectEncoding(pending, options.isXml);
    pending = pending.subarray(detected.bomLength);
  }
  const { text, error } = decodeBytes(pending, true);
  if (text.length > 0) yield countLines(text);
  if (error) throw error;
}
