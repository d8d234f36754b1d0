/**
 * A Web-standard `Request` and the `Response` being built for it, in the shapes every HTTP rule
 * takes (http-exchange.ts). The rules write an answer the way node:http is written to (`writeHead`,
 * `write`, `end`); here that becomes a `Response`: a whole body when the answer ends before any
 * chunk is written (JSON), a stream once one is (SSE). Nothing here imports `node:*`.
 */
import type { DecodeBody, ReadBody } from './http-body.js';
import { BodyCollector } from './http-body.js';
import type { HttpRequestIn, HttpResponseOut } from './http-exchange.js';

/** The platform manages the connection: these headers are not the answer's to set. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);
/** Statuses whose response has no body (the `Response` constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

export class WebRequestIn implements HttpRequestIn {
  readonly request: Request;
  readonly method: string;
  /** Path and query, as node:http gives them. */
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly rawHeaders: string[] = [];
  readonly socket = null;

  constructor(request: Request) {
    this.request = request;
    this.method = request.method;
    const url = new URL(request.url);
    this.url = url.pathname + url.search;
    // No prototype: a header named `__proto__` or `constructor` is just a name.
    const headers = Object.create(null) as Record<string, string>;
    for (const [name, value] of request.headers) {
      headers[name] = value;
      this.rawHeaders.push(name, value);
    }
    // Some platforms keep the host in the URL only.
    headers['host'] ??= url.host;
    this.headers = headers;
  }
}

/** Keeps a leading byte order mark, as node:http's `toString` does: such a body is not JSON. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

const decodeBytes: DecodeBody = (chunks, size) => {
  if (chunks.length === 1) return utf8.decode(chunks[0]);
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return utf8.decode(all);
};

/** The body of a Web request, chunk by chunk, under the shared limit (http-body.ts). */
export const readWebBody: ReadBody<WebRequestIn> = (req, maxBytes, done, tooLarge) => {
  const body = new BodyCollector(maxBytes, decodeBytes, done, tooLarge);
  const stream = req.request.body;
  if (stream === null) {
    body.end();
    return;
  }
  const reader = stream.getReader();
  const pump = async (): Promise<void> => {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return body.end();
      body.push(chunk.value);
      // Refused (past twice the limit): the rest is not read.
      if (body.refused) return reader.cancel();
    }
  };
  // A body cut short (the client went away) is answered as what arrived: not JSON, 400.
  pump().catch(() => body.end());
};

const encoder = new TextEncoder();
/** The body queue's high-water mark: node:http's default for a response. */
const QUEUE_BYTES = 16 * 1024;

/** The answer, as the rules write it; `response` resolves once its status and headers are known. */
export class WebResponseOut implements HttpResponseOut {
  readonly response: Promise<Response>;
  headersSent = false;
  private status = 200;
  private readonly headers: Record<string, string> = {};
  private resolve: (response: Response) => void = () => {};
  private stream: ReadableStreamDefaultController<Uint8Array> | undefined = undefined;
  /** No more may be written: the answer ended, was abandoned, or the client cancelled it. */
  private ended = false;
  private closed = false;
  private readonly closeListeners: (() => void)[] = [];

  constructor(signal: AbortSignal | undefined) {
    this.response = new Promise((resolve) => (this.resolve = resolve));
    // The client went away (platforms abort the request's signal): as node:http's 'close'.
    signal?.addEventListener('abort', () => this.cancelled(), { once: true });
  }

  setHeader(name: string, value: string): this {
    this.headers[name.toLowerCase()] = value;
    return this;
  }

  writeHead(status: number, headers?: Record<string, string>): this {
    this.status = status;
    if (headers !== undefined)
      for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
    this.headersSent = true;
    return this;
  }

  flushHeaders(): void {
    this.startStream();
  }

  get writableEnded(): boolean {
    return this.ended;
  }

  /** The bytes queued in the body that the platform has not taken yet (it takes them as the client reads). */
  get writableLength(): number {
    const room = this.stream?.desiredSize;
    return room === undefined || room === null ? 0 : Math.max(0, QUEUE_BYTES - room);
  }

  write(chunk: string): boolean {
    if (this.ended) return false;
    this.startStream();
    this.stream!.enqueue(encoder.encode(chunk));
    return true;
  }

  end(chunk?: string): this {
    if (this.ended) return this;
    this.ended = true;
    this.headersSent = true;
    if (this.stream === undefined) {
      const body = NULL_BODY.has(this.status) ? null : (chunk ?? null);
      this.resolve(new Response(body, { status: this.status, headers: this.sent() }));
    } else {
      if (chunk !== undefined && chunk !== '') this.stream.enqueue(encoder.encode(chunk));
      this.stream.close();
    }
    // node:http says 'close' after the answer is complete, too (outbound.ts counts on it).
    queueMicrotask(() => this.cancelled());
    return this;
  }

  /** The answer is abandoned: a started stream errors (the client sees it cut), else a bare 500. */
  destroy(): this {
    if (this.ended) return this;
    this.ended = true;
    if (this.stream === undefined) this.resolve(new Response(null, { status: 500 }));
    else this.stream.error(new Error('the server abandoned the response'));
    queueMicrotask(() => this.cancelled());
    return this;
  }

  on(event: 'close' | 'error', listener: (error: Error) => void): this {
    // A write after the end is refused here without an error: only 'close' is ever emitted.
    if (event === 'close') this.closeListeners.push(listener as () => void);
    return this;
  }

  private startStream(): void {
    if (this.stream !== undefined) return;
    this.headersSent = true;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.stream = controller;
        },
        cancel: () => this.cancelled(),
      },
      // Counted in bytes, so `writableLength` reads the queue as node:http's buffer reads.
      { highWaterMark: QUEUE_BYTES, size: (chunk) => chunk.byteLength },
    );
    this.resolve(new Response(body, { status: this.status, headers: this.sent() }));
  }

  private sent(): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.headers))
      if (!HOP_BY_HOP.has(name)) headers[name] = value;
    return headers;
  }

  /** The answer is over for the client (complete, cancelled, or the client left): 'close', once. */
  private cancelled(): void {
    this.ended = true;
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.closeListeners) listener();
  }
}
