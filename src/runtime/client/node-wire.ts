/**
 * The HTTP wire on `node:http`/`node:https`, the Node entry's (connect.ts): chosen over Node's
 * `fetch` because each call costs less CPU on it (bench/RESULTS.md, "The HTTP client's wire").
 */
import { Buffer } from 'node:buffer';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Exchange, WireResponse } from './http-wire.js';
import { SseParser, type SseEvent } from './sse-parser.js';

export const nodeExchange: Exchange = (url, method, headers, body, timeoutMs, signal) =>
  new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing: Record<string, string | number> = { ...headers };
    if (body !== undefined) outgoing['content-length'] = Buffer.byteLength(body);
    const attempt = (first: boolean): void => {
      const request = send(
        url,
        signal === undefined
          ? { method, headers: outgoing }
          : { method, headers: outgoing, signal },
        (message) => resolve(new NodeResponse(message)),
      );
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

  text(): Promise<string> {
    return new Promise((resolve) => {
      let text = '';
      this.message.setEncoding('utf8');
      this.message.on('data', (chunk: string) => (text += chunk));
      this.message.on('end', () => resolve(text));
      this.message.on('error', () => resolve(text));
      this.message.on('close', () => resolve(text));
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

  events(onEvent: (event: SseEvent) => void, onRetry: (ms: number) => void): Promise<boolean> {
    return new Promise((resolve) => {
      // Bytes, not text: the parser decodes them itself (and drops a leading BOM, as SSE wants).
      const parser = new SseParser(onEvent, onRetry);
      this.message.on('data', (chunk: Buffer) => parser.push(chunk));
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
