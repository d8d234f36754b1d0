/**
 * A local upstream HTTP API that records every request exactly as it arrived (method, raw path
 * with its query, headers, body) and answers what the test's `answer` says (default: 200 `{}`).
 * Listens on 127.0.0.1 only.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query as sent (`/api/q?tags=a&tags=b`), undecoded. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body's bytes as they arrived (binary bodies, multipart). */
  bytes: Buffer;
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

export interface RecordingUpstream {
  /** `127.0.0.1:port`. */
  host: string;
  requests: RecordedRequest[];
  /** Decides each answer; replaced by tests. */
  answer: (request: RecordedRequest) => Answer;
  /** The last request, failing when there is none. */
  last(): RecordedRequest;
  close(): Promise<void>;
}

export const json = (value: unknown, status = 200): Answer => ({ status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(value) });

export async function startRecordingUpstream(): Promise<RecordingUpstream> {
  const upstream: RecordingUpstream = {
    host: '',
    requests: [],
    answer: () => json({}),
    last() {
      const request = upstream.requests.at(-1);
      if (request === undefined) throw new Error('the upstream received no request');
      return request;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const request: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers }, body: bytes.toString('utf8'), bytes };
      upstream.requests.push(request);
      const answer = upstream.answer(request);
      const send = (): void => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, answer.headers ?? {});
        res.end(answer.body ?? '');
      };
      if (answer.delayMs !== undefined) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return upstream;
}
