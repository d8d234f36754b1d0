/// <reference types="node" />
/**
 * What both HTTP client transports need of the wire, whichever carries it: `node-wire.ts`
 * (`node:http`/`node:https`, the Node entry) or `fetch-wire.ts` (`fetch` and `ReadableStream`, the
 * browser entry). The SSE parser and the JSON helpers are shared; this module imports nothing.
 */

export interface SseEvent {
  event: string;
  data: string;
  id: string | undefined;
}

/** One HTTP response as the transports read it. */
export interface WireResponse {
  readonly status: number;
  /** A response header by lower-case name; several values are joined with `, `. */
  header(name: string): string | undefined;
  /** The whole body as text (what arrived before a break, if it breaks). */
  text(): Promise<string>;
  /** Reads the body to its end and drops it. */
  drain(): Promise<void>;
  /**
   * Reads the body as SSE, events and `retry` fields as they come; resolves when it ends (true) or
   * breaks before its end (false: the connection closed, e.g. the server process died).
   */
  events(onEvent: (event: SseEvent) => void, onRetry: (ms: number) => void): Promise<boolean>;
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
 * the stream broke before its end.
 */
export async function readSse(
  response: WireResponse,
  onEvent: (event: SseEvent) => void,
  onRetry: (ms: number) => void,
  open: Set<WireResponse>,
): Promise<boolean> {
  open.add(response);
  try {
    return await response.events(onEvent, onRetry);
  } finally {
    open.delete(response);
  }
}

/** Whether a response is an SSE stream (`Content-Type`, which a browser exposes on any response). */
export function isEventStream(response: WireResponse): boolean {
  return (response.header('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
}

/** Splits decoded text into SSE lines and events; chunks may end anywhere, even inside a CRLF. */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;
  private any = false;
  private readonly onEvent: (event: SseEvent) => void;
  private readonly onRetry: (ms: number) => void;

  constructor(onEvent: (event: SseEvent) => void, onRetry: (ms: number) => void) {
    this.onEvent = onEvent;
    this.onRetry = onRetry;
  }

  push(chunk: string): void {
    this.buffer += chunk;
    let newline = this.buffer.search(/\r\n|\r|\n/);
    while (newline !== -1) {
      const crlf = this.buffer.startsWith('\r\n', newline);
      this.line(this.buffer.slice(0, newline));
      this.buffer = this.buffer.slice(newline + (crlf ? 2 : 1));
      newline = this.buffer.search(/\r\n|\r|\n/);
    }
  }

  private dispatch(): void {
    if (this.any) {
      const event = this.event === '' ? 'message' : this.event;
      this.onEvent({ event, data: this.data.join('\n'), id: this.id });
    }
    this.data = [];
    this.event = '';
    this.id = undefined;
    this.any = false;
  }

  private line(text: string): void {
    if (text === '') return this.dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.any = true;
    } else if (field === 'event') {
      this.event = value;
      this.any = true;
    } else if (field === 'id') {
      if (!value.includes('\0')) this.id = value;
      this.any = true;
    } else if (field === 'retry' && /^\d+$/.test(value)) {
      this.onRetry(Number(value));
    }
  }
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
