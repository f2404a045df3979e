/**
 * API keys: `tmk_<env>_<32 base62 chars>` (about 190 bits of randomness). Only the SHA-256 hash is stored; the key
 * is shown once when issued. A short display prefix lets an owner tell their keys apart.
 */
import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = /^tmk_[a-z][a-z0-9]{0,15}_[0-9A-Za-z]{32}$/;

/** Uniform base62 string: bytes at or above 248 (= 4 * 62) are rejected so every character is equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function generateApiKey(envName: string): string {
  return `tmk_${envName}_${randomBase62(32)}`;
}

export function isWellFormedApiKey(candidate: string): boolean {
  return KEY_PATTERN.test(candidate);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** What listings show: the environment and the first four random characters, never enough to use the key. */
export function displayPrefix(key: string): string {
  const lastUnderscore = key.lastIndexOf('_');
  return `${key.slice(0, lastUnderscore + 5)}…`;
}

export function newId(kind: 'acct' | 'key' | 'credit' | 'adj' | 'evt'): string {
  return `${kind}_${randomBase62(16)}`;
}
