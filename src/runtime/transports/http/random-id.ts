/// <reference types="node" />
/**
 * Unguessable ids (sessions, streams) from the platform's CSPRNG through Web Crypto, which Node,
 * Bun, Deno and Workers all have: the HTTP rules need no `node:crypto`.
 */

/** `bytes` random bytes, base64url (visible ASCII only). */
export function randomId(bytes: number): string {
  const random = crypto.getRandomValues(new Uint8Array(bytes));
  let binary = '';
  for (const byte of random) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
