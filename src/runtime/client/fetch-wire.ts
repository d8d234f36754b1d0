/**
 * The HTTP wire on `fetch` and `ReadableStream`, the browser entry's (connect-browser.ts): no
 * `node:*` import. A response's body is read as it streams (SSE event by event); closing the
 * exchange aborts the fetch, which the server sees as a disconnect. The browser leaves out the
 * headers a page may not set (`Content-Length` among them: it counts the body itself).
 */
import type { Exchange, WireResponse } from './http-wire.js';
import { SseParser, type SseEvent } from './sse-parser.js';
import { MessageTooLargeError } from './errors.js';

export const fetchExchange: Exchange = async (url, method, headers, body, timeoutMs, signal) => {
  const controller = new AbortController();
  const abort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted === true) abort();
  else signal?.addEventListener('abort', abort, { once: true });
  // Like node-wire's socket timeout, the limit covers the wait for the response.
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => controller.abort(new Error(`${method} timed out`)), timeoutMs);
  const release = (): void => signal?.removeEventListener('abort', abort);
  try {
    const init: RequestInit = { method, headers, signal: controller.signal };
    if (body !== undefined) init.body = body;
    return new FetchResponse(await fetch(url, init), controller, release);
  } catch (error) {
    release();
    throw error;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
};

class FetchResponse implements WireResponse {
  readonly status: number;
  private readonly response: Response;
  private readonly controller: AbortController;
  /** Takes the abort listener off the caller's signal once the exchange is over. */
  private readonly release: () => void;

  constructor(response: Response, controller: AbortController, release: () => void) {
    this.response = response;
    this.controller = controller;
    this.release = release;
    this.status = response.status;
  }

  header(name: string): string | undefined {
    return this.response.headers.get(name) ?? undefined;
  }

  async text(maxBytes = Number.POSITIVE_INFINITY): Promise<string> {
    let text = '';
    let bytes = 0;
    const decoder = new TextDecoder();
    await this.read((chunk) => {
      bytes += chunk.byteLength;
      if (bytes > maxBytes) return false;
      text += decoder.decode(chunk, { stream: true });
      return true;
    });
    if (bytes > maxBytes) throw new MessageTooLargeError(maxBytes, 'as an HTTP body');
    return text + decoder.decode();
  }

  async drain(): Promise<void> {
    await this.read(() => true);
  }

  /** The parser decodes the bytes itself (a character split between chunks, a leading BOM). */
  async events(
    onEvent: (event: SseEvent) => void,
    onRetry: (ms: number) => void,
    maxBytes?: number,
  ): Promise<boolean> {
    const parser = new SseParser(onEvent, onRetry, maxBytes);
    const ended = await this.read((bytes) => {
      parser.push(bytes);
      return !parser.tooLarge;
    });
    if (parser.tooLarge) throw new MessageTooLargeError(maxBytes!, 'on an SSE stream');
    return ended;
  }

  close(): void {
    this.controller.abort();
    this.release();
  }

  /**
   * The body's bytes, chunk by chunk, until it ends (true) or breaks (false, an abort included);
   * `onChunk` answering false closes the exchange (false).
   */
  private async read(onChunk: (bytes: Uint8Array) => boolean): Promise<boolean> {
    const body = this.response.body;
    if (body === null) {
      this.release();
      return true;
    }
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!onChunk(value)) {
          this.controller.abort();
          return false;
        }
      }
      return true;
    } catch {
      // A broken or aborted stream ends the body: what arrived stands.
      return false;
    } finally {
      this.release();
    }
  }
}
