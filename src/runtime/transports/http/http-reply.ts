/** Plain HTTP answers of the Streamable HTTP transport, and the Accept checks. */
import type { HttpResponseOut } from './http-exchange.js';
import { NULL_ID, TRANSPORT_ERROR, errorMessage } from '../../protocol/jsonrpc.js';

export const JSON_HEADERS = { 'content-type': 'application/json' };
export const ACCEPTS_JSON = /application\/json|application\/\*|\*\/\*/;
export const ACCEPTS_SSE = /text\/event-stream|text\/\*|\*\/\*/;

export function send(res: HttpResponseOut, status: number, body: string): void {
  res.writeHead(status, JSON_HEADERS).end(body);
}

export function sendError(
  res: HttpResponseOut,
  status: number,
  code: number,
  message: string,
): void {
  send(res, status, errorMessage(NULL_ID, code, message));
}

/** A new session refused: `max` are open (Streamable HTTP's initialize, a legacy SSE stream). */
export function refuseSessionLimit(res: HttpResponseOut, max: number): void {
  res.setHeader('retry-after', '60');
  sendError(
    res,
    503,
    TRANSPORT_ERROR,
    `Service Unavailable: the server has its maximum of ${max} sessions`,
  );
}

/**
 * False once the answer ended. node:http emits 'error' for a write after `end`
 * (ERR_STREAM_WRITE_AFTER_END), which would end the process: every late write checks this first.
 * (A connection the client dropped is harmless: node:http discards what is written to it.)
 */
export function isOpen(res: HttpResponseOut): boolean {
  return !res.writableEnded;
}

/**
 * Writes one live SSE chunk, unless the client stopped reading: when more than `maxUnsentBytes`
 * from earlier writes still wait for it, the connection is cut instead, so a client that never
 * reads cannot make the server buffer without end. Only what waits counts, never the chunk itself:
 * one large message to a reading client always goes out. A cut session stream keeps its events in
 * the event store, for the client to resume with `Last-Event-ID`. False when nothing was written.
 */
export function writeLive(res: HttpResponseOut, chunk: string, maxUnsentBytes: number): boolean {
  if (!isOpen(res)) return false;
  if ((res.writableLength ?? 0) > maxUnsentBytes) {
    res.destroy();
    return false;
  }
  res.write(chunk);
  return true;
}
