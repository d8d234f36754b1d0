/**
 * The request and response as every HTTP rule of the transport sees them, whatever serves them:
 * node:http's `IncomingMessage` and `ServerResponse` fit these shapes as they are (the Node adapter,
 * http.ts, passes them straight through, at no cost), and the Web-standard adapter (web.ts) wraps a
 * `Request` and builds its `Response` behind them (web-exchange.ts). Types only: nothing here loads.
 */

/** Request headers by lower-case name, as node:http gives them (a repeated header may be an array). */
export type HeaderValues = Readonly<Record<string, string | string[] | undefined>>;

export interface HttpRequestIn {
  /** `GET`, `POST`, … */
  readonly method?: string | undefined;
  /** The request target: path and query (`/mcp?x=1`). */
  readonly url?: string | undefined;
  readonly headers: HeaderValues;
  /**
   * Name, value, name, value… as received: node:http keeps every line; a Web `Headers` has one
   * entry per name (repeats joined by ", "), so a web request lists each name once.
   */
  readonly rawHeaders: readonly string[];
  /** The connection, for caches kept per connection; null where the platform does not show it. */
  readonly socket?: object | null | undefined;
}

/** Where the answer goes: the subset of node:http's `ServerResponse` the transport uses. */
export interface HttpResponseOut {
  /** True once `writeHead` was called: the status and headers can no longer change. */
  readonly headersSent: boolean;
  /** True once `end` was called: nothing more may be written (node:http would emit 'error'). */
  readonly writableEnded: boolean;
  /** Bytes written but not yet taken by the client (node:http's buffer, the Web stream's queue). */
  readonly writableLength?: number;
  setHeader(name: string, value: string): unknown;
  writeHead(status: number, headers?: Record<string, string>): this;
  /** A chunk of the body: the answer becomes a stream (SSE). */
  write(chunk: string): unknown;
  /** The last chunk, if any; the answer is complete. */
  end(chunk?: string): unknown;
  /** Sends the status and headers now, before any body. */
  flushHeaders(): void;
  /** Abandons the answer (the connection is dropped). */
  destroy(): unknown;
  /** After the answer ended, or when the client went away before. */
  on(event: 'close', listener: () => void): unknown;
  /** A write the connection refused (node:http); the Web adapter never emits it. */
  on(event: 'error', listener: (error: Error) => void): unknown;
}
