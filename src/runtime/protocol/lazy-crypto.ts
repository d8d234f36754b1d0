/// <reference types="node" />
/**
 * node:crypto, loaded on first use. Loading it is a noticeable part of start-up, and a stdio
 * server needs it only to sign a 2026-07-28 request state (HTTP loads it anyway, for session ids).
 */
import { createRequire } from 'node:module';

type NodeCrypto = typeof import('node:crypto');
let loaded: NodeCrypto | undefined;

export function nodeCrypto(): NodeCrypto {
  return (loaded ??= createRequire(import.meta.url)('node:crypto') as NodeCrypto);
}
