/**
 * Cache keys and schema digests are SHA-256 in hex (schema/sha256.ts), taken the quick way where
 * Node has `crypto.hash`: the same digest as a Hash object gives, for any text, so a cache written
 * by one Node 20 release is read by another.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/schema/sha256.js';

describe('sha256Hex', () => {
  it('gives the digest of the text as UTF-8, as createHash does', () => {
    for (const text of ['', 'tool\0fingerprint\0{"a":1}', 'héllo — ☃ 𝄞', 'lone \ud800 surrogate', 'x'.repeat(100_000)]) {
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    }
  });
});
