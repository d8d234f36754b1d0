/**
 * The HTTP wire on `node:http`/`node:https`, the Node entry's (connect.ts): chosen over Node's
 * `fetch` because each call costs less CPU on it (bench/RESULTS.md, "The HTTP client's wire").
 */
import { Buffer } from 'node:buffer';
import {
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import type { Exchange, WireResponse } from './http-wire.js';
import { SseParser, type SseEvent } from './sse-parser.js';
import { MessageTooLargeError } from './errors.js';

export const nodeExchange: Exchange = (url, method, headers, body, timeoutMs, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const length = body === undefined ? undefined : Buffer.byteLength(body);
    // Options, not the URL itself, and no `signal`: node:http would work the URL out again and
    // hook the signal on every request (closeOnAbort hooks each signal once). A literal, not a
    // spread of the target: adding keys to a spread copy is slow on Node 20's V8.
    const target = targetOf(url);
    const options: RequestOptions = {
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      path: target.path,
      auth: target.auth,
      method,
      headers,
    };
    const attempt = (first: boolean): void => {
      const request = send(options, (message) => resolve(new NodeResponse(message)));
      // Set on the request rather than on a copy of the caller's headers (which stay theirs).
      if (length !== undefined) request.setHeader('content-length', length);
      if (signal !== undefined) closeOnAbort(signal, request);
      request.on('error', (error: NodeJS.ErrnoException) => {
        // The keep-alive race: the server closed the idle connection as this request went out on
        // it. It read nothing, so the request is sent once more on a new connection.
        if (first && request.reusedSocket && error.code === 'ECONNRESET' && !signal?.aborted)
          attempt(false);
        else reject(error);
      });
      if (timeoutMs !== undefined)
        request.setTimeout(timeoutMs, () => request.destroy(new Error(`${method} timed out`)));
      request.end(body);
    };
    attempt(true);
  });

/** The request options of each URL, worked out once: a transport sends every request to one URL. */
const targets = new WeakMap<URL, { href: string; options: RequestOptions }>();

function targetOf(url: URL): RequestOptions {
  const href = url.href;
  const known = targets.get(url);
  if (known !== undefined && known.href === href) return known.options;
  // Only what node:http reads of it (`path` has the query; a fragment is never sent).
  const { protocol, hostname, port, path, auth } = urlToHttpOptions(url);
  const options: RequestOptions = { protocol, hostname, port, path, auth };
  targets.set(url, { href, options });
  return options;
}

/**
 * The requests still open under each signal. A transport gives every plain request the same
 * signal (aborted when it closes), so one listener per signal closes them all, instead of one
 * added and removed per request.
 */
const openUnder = new WeakMap<AbortSignal, Set<ClientRequest>>();

/** Closes `request` (its response included: the server sees the disconnect) when `signal` aborts. */
function closeOnAbort(signal: AbortSignal, request: ClientRequest): void {
  let open = openUnder.get(signal);
  if (open === undefined) {
    const requests = new Set<ClientRequest>();
    openUnder.set(signal, requests);
    signal.addEventListener(
      'abort',
      () => {
        const error = abortError(signal);
        for (const each of requests) each.destroy(error);
        requests.clear();
      },
      { once: true },
    );
    open = requests;
  }
  const requests = open;
  requests.add(request);
  request.once('close', () => requests.delete(request));
}

/** What node:http rejects an aborted request with when given the signal itself. */
function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), {
    name: 'AbortError',
    code: 'ABORT_ERR',
  });
}

class NodeResponse implements WireResponse {
  readonly status: number;
  private readonly message: IncomingMessage;

  constructor(message: IncomingMessage) {
    this.message = message;
    this.status = message.statusCode ?? 0;
  }

  header(name: string): string | undefined {
    const value = this.message.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  text(maxBytes = Number.POSITIVE_INFINITY): Promise<string> {
    return new Promise((resolve, reject) => {
      // Bytes kept and decoded once at the end (a JSON answer mostly comes in one chunk).
      const chunks: Buffer[] = [];
      let bytes = 0;
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        resolve(
          chunks.length === 1
            ? (chunks[0] as Buffer).toString('utf8')
            : Buffer.concat(chunks).toString('utf8'),
        );
      };
      this.message.on('data', (chunk: Buffer) => {
        if (done) return;
        bytes += chunk.length;
        if (bytes <= maxBytes) chunks.push(chunk);
        else {
          done = true;
          this.message.destroy();
          reject(new MessageTooLargeError(maxBytes, 'as an HTTP body'));
        }
      });
      this.message.on('end', finish);
      this.message.on('error', finish);
      this.message.on('close', finish);
    });
  }

  drain(): Promise<void> {
    return new Promise((resolve) => {
      this.message
        .on('end', resolve)
        .on('error', () => resolve())
        .on('close', resolve);
      this.message.resume();
    });
  }

  events(
    onEvent: (event: SseEvent) => void,
    onRetry: (ms: number) => void,
    maxBytes?: number,
  ): Promise<boolean> {
    return new Promise((resolve, reject) => {
      // Bytes, not text: the parser decodes them itself (and drops a leading BOM, as SSE wants).
      const parser = new SseParser(onEvent, onRetry, maxBytes);
      this.message.on('data', (chunk: Buffer) => {
        if (parser.tooLarge) return;
        parser.push(chunk);
        if (!parser.tooLarge) return;
        this.message.destroy();
        reject(new MessageTooLargeError(maxBytes!, 'on an SSE stream'));
      });
      // `complete` is set only when the whole body arrived (the last chunk of a chunked body).
      const end = (): void => resolve(this.message.complete);
      this.message.on('end', end);
      this.message.on('error', end);
      this.message.on('close', end);
    });
  }

  close(): void {
    this.message.destroy();
  }
}
