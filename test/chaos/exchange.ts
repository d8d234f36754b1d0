/**
 * One HTTP request of the chaos client, cut at will. Two ways to send it, because the cuts differ:
 * node:http (the socket is destroyed under the request) and fetch (the request is aborted through
 * its AbortSignal, as an app does). Either may send only the first half of its body and wait, so
 * a cut can land before the body ends.
 */
import { request, type ClientRequest } from 'node:http';

export interface Exchange {
  /** Everything the response has carried so far (the status line and headers aside). */
  readonly text: string;
  readonly status: number | undefined;
  readonly ended: boolean;
  /** Resolves true once `test(text)` holds (or the response has headers, for `headers`), false after `ms`. */
  waitFor(test: (text: string) => boolean, ms?: number): Promise<boolean>;
  waitForHeaders(ms?: number): Promise<boolean>;
  waitForEnd(ms?: number): Promise<boolean>;
  /** Socket destroyed (node:http) or fetch aborted. */
  cut(): void;
}

export interface Sent {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Send only the first half of the body, and never the rest. */
  partial?: boolean;
}

/** Base: the response text and waiting for it. */
abstract class Watched implements Exchange {
  text = '';
  status: number | undefined = undefined;
  ended = false;
  private readonly waiters = new Set<() => void>();

  protected changed(): void {
    for (const wake of [...this.waiters]) wake();
  }

  waitFor(test: (text: string) => boolean, ms = 3000): Promise<boolean> {
    return this.until(() => test(this.text), ms);
  }

  waitForHeaders(ms = 3000): Promise<boolean> {
    return this.until(() => this.status !== undefined, ms);
  }

  waitForEnd(ms = 3000): Promise<boolean> {
    return this.until(() => this.ended, ms);
  }

  private until(done: () => boolean, ms: number): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = (): void => {
        if (!done() && !this.ended) return;
        finish(done());
      };
      const finish = (value: boolean): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(value);
      };
      const timer = setTimeout(() => finish(done()), ms);
      this.waiters.add(check);
    });
  }

  abstract cut(): void;
}

/** Over node:http, on a connection of its own: `cut` destroys the socket. */
export class SocketExchange extends Watched {
  private readonly req: ClientRequest;

  constructor(sent: Sent) {
    super();
    const body = sent.body ?? '';
    const headers = { ...sent.headers, ...(sent.method === 'POST' ? { 'content-length': String(Buffer.byteLength(body)) } : {}) };
    this.req = request(sent.url, { method: sent.method, headers, agent: false });
    // The cut is ours: the errors it causes on this side are expected.
    this.req.on('error', () => this.over());
    this.req.on('response', (res) => {
      this.status = res.statusCode;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        this.text += chunk;
        this.changed();
      });
      res.on('end', () => this.over());
      res.on('error', () => this.over());
      res.on('close', () => this.over());
      this.changed();
    });
    if (sent.partial === true) this.req.write(body.slice(0, Math.floor(body.length / 2)));
    else this.req.end(body);
  }

  private over(): void {
    this.ended = true;
    this.changed();
  }

  cut(): void {
    this.req.destroy();
    this.over();
  }
}

/** Over fetch: `cut` aborts it. A partial body is a stream that sends half and never closes. */
export class FetchExchange extends Watched {
  private readonly controller = new AbortController();

  constructor(sent: Sent) {
    super();
    const body = sent.body ?? '';
    const init: RequestInit & { duplex?: 'half' } = { method: sent.method, headers: sent.headers, signal: this.controller.signal };
    if (sent.method === 'POST') {
      if (sent.partial === true) {
        const half = new TextEncoder().encode(body.slice(0, Math.floor(body.length / 2)));
        init.body = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(half) });
        init.duplex = 'half';
      } else init.body = body;
    }
    void this.read(fetch(sent.url, init));
  }

  private async read(pending: Promise<Response>): Promise<void> {
    try {
      const response = await pending;
      this.status = response.status;
      this.changed();
      const decoder = new TextDecoder();
      for await (const chunk of response.body ?? []) {
        this.text += decoder.decode(chunk as Uint8Array, { stream: true });
        this.changed();
      }
    } catch {
      // Aborted by the cut, or the server ended the connection.
    }
    this.ended = true;
    this.changed();
  }

  cut(): void {
    this.controller.abort();
  }
}
