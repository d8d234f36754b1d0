/// <reference types="node" />
/**
 * What both HTTP client transports need of the wire, whichever carries it: `node-wire.ts`
 * (`node:http`/`node:https`, the Node entry) or `fetch-wire.ts` (`fetch` and `ReadableStream`, the
 * browser entry). The JSON helpers are shared here; the SSE parser is sse-parser.ts.
 */

import type { SseEvent } from './sse-parser.js';

export type { SseEvent };

/** One HTTP response as the transports read it. */
export interface WireResponse {
  readonly status: number;
  /** A response header by lower-case name; several values are joined with `, `. */
  header(name: string): string | undefined;
  /**
   * The whole body as text (what arrived before a break, if it breaks). A body over `maxBytes` is
   * not kept: the response is closed and the promise rejects with `MessageTooLargeError`.
   */
  text(maxBytes?: number): Promise<string>;
  /** Reads the body to its end and drops it. */
  drain(): Promise<void>;
  /**
   * Reads the body as SSE, events and `retry` fields as they come; resolves when it ends (true) or
   * breaks before its end (false: the connection closed, e.g. the server process died). A line or
   * an event over `maxBytes` closes the response and rejects with `MessageTooLargeError`.
   */
  events(
    onEvent: (event: SseEvent) => void,
    onRetry: (ms: number) => void,
    maxBytes?: number,
  ): Promise<boolean>;
  /** Closes the exchange now: the server sees the disconnect. */
  close(): void;
}

/** One HTTP exchange; aborting `signal` closes it, response included (the server sees the disconnect). */
export type Exchange = (
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs?: number,
  signal?: AbortSignal,
) => Promise<WireResponse>;

/**
 * Reads `response` as SSE while it is in `open` (so closing the transport can close it); false when
 * the stream broke before its end. Rejects with `MessageTooLargeError` past `maxBytes`.
 */
export async function readSse(
  response: WireResponse,
  onEvent: (event: SseEvent) => void,
  onRetry: (ms: number) => void,
  open: Set<WireResponse>,
  maxBytes?: number,
): Promise<boolean> {
  open.add(response);
  try {
    return await response.events(onEvent, onRetry, maxBytes);
  } finally {
    open.delete(response);
  }
}

/** Whether a response is an SSE stream (`Content-Type`, which a browser exposes on any response). */
export function isEventStream(response: WireResponse): boolean {
  return (response.header('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isAnswerTo(message: unknown, id: string | number | null | undefined): boolean {
  if (id === undefined || typeof message !== 'object' || message === null) return false;
  const m = message as { id?: unknown; method?: unknown };
  return m.method === undefined && m.id === id;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
