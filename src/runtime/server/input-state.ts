/// <reference types="node" />
/**
 * The signed `requestState` of a 2026-07-28 input-required result: what the client echoes back so
 * the retried request resumes with the answers so far, readable only by this server and only for
 * the request it came from.
 */
import { Buffer } from 'node:buffer';
import type { JsonObject } from '../api.js';
import { isObject } from '../protocol/jsonrpc.js';
import { nodeCrypto } from '../protocol/lazy-crypto.js';

/** What an input-required round hands the client to echo: the answers so far, for this request only. */
export interface InputState {
  /** `tools/call:<name>`, `prompts/get:<name>`, …: a state is valid only for the request it came from. */
  readonly target: string;
  readonly round: number;
  readonly answers: Record<string, JsonObject>;
}

export function sealState(state: InputState, secret: string): string {
  const payload = Buffer.from(JSON.stringify(state)).toString('base64url');
  return (
    payload + '.' + nodeCrypto().createHmac('sha256', secret).update(payload).digest('base64url')
  );
}

/** The state if its signature holds and it belongs to `target`; undefined otherwise. */
export function openState(sealed: string, secret: string, target: string): InputState | undefined {
  const dot = sealed.indexOf('.');
  if (dot === -1) return undefined;
  const payload = sealed.slice(0, dot);
  const mac = Buffer.from(sealed.slice(dot + 1), 'base64url');
  const { createHmac, timingSafeEqual } = nodeCrypto();
  const expected = createHmac('sha256', secret).update(payload).digest();
  if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return undefined;
  try {
    const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as InputState;
    if (state.target !== target || !isObject(state.answers) || typeof state.round !== 'number')
      return undefined;
    return state;
  } catch {
    return undefined;
  }
}
