import * as crypto from 'node:crypto';

/**
 * The SHA-256 of a text, in hex: what every unit-cache key and schema digest is. `crypto.hash`
 * (Node 20.12 and later) makes no Hash object, which matters for the thousands of short texts a
 * warm run hashes; older Node 20 releases take the long way, to the same digest.
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: string) => string }).hash;

export const sha256Hex: (text: string) => string = oneShot ? (text) => oneShot('sha256', text) : (text) => crypto.createHash('sha256').update(text).digest('hex');
