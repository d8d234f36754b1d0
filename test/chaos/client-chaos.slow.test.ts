/**
 * The chaos client in reverse (issue 39 item 3): our client against a server cut at every step.
 * A loopback proxy sits in front of a real server and passes everything through, except the one
 * answer it cuts: the connection destroyed before the headers, after them, in the middle of the
 * body (a JSON answer or an SSE stream), the body ended early, an SSE stream ended after its last
 * event without the answer, or no answer at all. Cut once at the handshake, once at a call, in
 * both eras. The client must give a clear error (or the answer, when it could resume the stream
 * from the real server), never hang past its timeout, and leave no unhandled rejection.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type HttpListener } from '../../src/runtime/index.js';
import { openSession } from '../../src/runtime/client/index.js';
import { holdLog, sessionEndDefinition, sessionEndHandlers } from '../runtime/session-end-server.js';
import type { Era } from './http-cases.js';

type Step = 'destroyed-before-headers' | 'destroyed-after-headers' | 'destroyed-mid-body' | 'body-ended-early' | 'ended-after-last-event' | 'no-answer';
const STEPS: readonly Step[] = ['destroyed-before-headers', 'destroyed-after-headers', 'destroyed-mid-body', 'body-ended-early', 'ended-after-last-event', 'no-answer'];
const CALL_TIMEOUT_MS = 1500;
/** Beyond this, a settled promise counts as a hang. */
const HANG_MS = CALL_TIMEOUT_MS + 3000;

let upstream: HttpListener;
const unhandled: unknown[] = [];
const onUnhandled = (error: unknown): void => void unhandled.push(error);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  upstream = await createServer(sessionEndDefinition(), sessionEndHandlers(holdLog()), { logger: () => {} }).listenHttp({});
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await upstream?.close();
});

/** The proxy: cuts the answer to the first request `target` picks, passes every other through. */
async function cuttingProxy(step: Step, target: (body: string) => boolean): Promise<{ url: string; close(): Promise<void> }> {
  let cut = false;
  const held: ServerResponse[] = [];
  const server: Server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const cutThis = !cut && req.method === 'POST' && target(body);
      if (cutThis) cut = true;
      if (cutThis && step === 'destroyed-before-headers') return void res.destroy();
      if (cutThis && step === 'no-answer') return void held.push(res);
      void forward(req, body, res, cutThis ? step : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function forward(req: IncomingMessage, body: string, res: ServerResponse, step: Step | undefined): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers[name] = value;
  const answer = await fetch(upstream.url, { method: req.method!, headers, ...(req.method === 'POST' ? { body } : {}) });
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection') out[name] = value;
  });
  res.writeHead(answer.status, out);
  res.flushHeaders();
  if (step === 'destroyed-after-headers') {
    void answer.body?.cancel();
    return void res.destroy();
  }
  if (step === undefined) {
    for await (const chunk of answer.body ?? []) res.write(chunk);
    return void res.end();
  }
  const text = await answer.text();
  if (step === 'destroyed-mid-body') {
    res.write(text.slice(0, Math.floor(text.length / 2)));
    return void setTimeout(() => res.destroy(), 20);
  }
  if (step === 'body-ended-early') return void res.end(text.slice(0, Math.floor(text.length / 2)));
  // ended-after-last-event: every event but the answer, then a clean end (a JSON answer: nothing).
  const events = text.split('\n\n').filter((event) => event !== '' && !/"result"|"error"/.test(event));
  res.end(events.map((event) => event + '\n\n').join(''));
}

interface Outcome {
  name: string;
  settledIn: number;
  /** The answer, or the error's message; `hang` when nothing settled in time. */
  result: 'answered' | 'hang' | string;
}

async function runReverse(era: Era, at: 'handshake' | 'call', step: Step, streamed: boolean): Promise<Outcome> {
  const name = `${era} ${at}${at === 'call' ? (streamed ? ' (SSE)' : ' (JSON)') : ''} ${step}`;
  const isHandshake = (body: string) => /"method":"(initialize|server\/discover)"/.test(body);
  const isCall = (body: string) => body.includes('"method":"tools/call"');
  const proxy = await cuttingProxy(step, at === 'handshake' ? isHandshake : isCall);
  const started = Date.now();
  const attempt = (async (): Promise<string> => {
    const session = await openSession({ url: proxy.url, protocolVersions: [era], clientInfo: { name: 'reverse-chaos', version: '1' } });
    try {
      const params = streamed
        ? { name: 'hold_progress', arguments: { ms: 50 }, _meta: { progressToken: 1 } }
        : { name: 'hold', arguments: { ms: 50 } };
      const result = await session.request('tools/call', params, { timeoutMs: CALL_TIMEOUT_MS, onProgress: () => {} });
      return (result['content'] as { text: string }[] | undefined)?.[0]?.text?.startsWith('held') === true ? 'answered' : `wrong answer ${JSON.stringify(result)}`;
    } finally {
      await session.close().catch(() => {});
    }
  })().catch((error: unknown) => (error instanceof Error && error.message !== '' ? `error: ${error.message}` : `unclear rejection: ${String(error)}`));
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([attempt, new Promise<'hang'>((resolve) => (timer = setTimeout(() => resolve('hang'), HANG_MS)))]);
  clearTimeout(timer);
  await proxy.close();
  return { name, settledIn: Date.now() - started, result };
}

describe('our client against a server cut at every step', () => {
  it('gives a clear error or the answer, never hangs past its timeout, leaves no unhandled rejection', async () => {
    const runs: Promise<Outcome>[] = [];
    for (const era of ['2025-11-25', '2026-07-28'] as const)
      for (const step of STEPS) {
        // Left out, a known gap: a handshake that gets no answer at all waits as long as undici does
        // (its 5-minute headers timeout), for `openSession`/`connect` take no timeout of their own.
        if (step !== 'no-answer') runs.push(runReverse(era, 'handshake', step, false));
        runs.push(runReverse(era, 'call', step, false), runReverse(era, 'call', step, true));
      }
    const outcomes = await Promise.all(runs);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const hangs = outcomes.filter((o) => o.result === 'hang').map((o) => o.name);
    const unclear = outcomes.filter((o) => o.result.startsWith('unclear') || o.result.startsWith('wrong')).map((o) => `${o.name}: ${o.result}`);
    const errors = outcomes.filter((o) => o.result.startsWith('error: '));
    console.log(
      `chaos (our client, server cut): ${outcomes.length} cases; clear errors ${errors.length}, answered after resuming ${outcomes.filter((o) => o.result === 'answered').length}, ` +
        `hangs ${hangs.length}, unclear ${unclear.length}, unhandled rejections ${unhandled.length}`,
    );
    for (const o of outcomes) console.log(`  ${o.name}: ${o.result} (${o.settledIn} ms)`);
    expect(hangs).toEqual([]);
    expect(unclear).toEqual([]);
    expect(unhandled).toEqual([]);
    // Every cut that the client could not get around is an error, never a silent success.
    expect(errors.length).toBeGreaterThan(outcomes.length / 2);
  }, 60_000);
});
