import * as crypto from 'node:crypto';

/**
 * The SHA-256 of a text or of bytes, in hex: every unit-cache key, schema digest, ledger input hash
 * and written file's body hash. `crypto.hash` (Node 20.12 and later) makes no Hash object, which
 * matters for the thousands of short texts a warm run hashes; older Node 20 releases
 * take the long way, to the same digest. Bytes are hashed as they are (a string of MBs would be
 * encoded again).
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array) => string }).hash;

export const sha256Hex: (data: string | Uint8Array) => string = oneShot
  ? (data) => oneShot('sha256', data)
  : (data) => crypto.createHash('sha256').update(data).digest('hex');
