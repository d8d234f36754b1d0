/**
 * Runtime fuzzing (issue 6): hostile JSON-RPC traffic over stdio and Streamable HTTP against the
 * runtime's demo server, in this process so its prototypes can be checked. The oracle: every
 * request answered exactly once (by id, or with id null when it has no usable id), stdout carries
 * only JSON lines, no built-in prototype changes, and the next valid request is answered.
 *
 * Fixed seed and bounded runs here; `npm run fuzz:runtime` runs far more (FUZZ_RUNS, FUZZ_SEED).
 */
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type HttpListener } from '../../src/runtime/index.js';
import { buildDefinition, handlers } from './fixtures/demo-server.js';
import { duplicatePair, fuzzCase, Ids, type FuzzCase } from './fuzz/cases.js';

const SEED = process.env['FUZZ_SEED'] === 'random' ? Date.now() % 2 ** 31 : Number(process.env['FUZZ_SEED'] ?? 20261126);
if (process.env['FUZZ_SEED'] !== undefined) console.log(`runtime fuzz seed ${SEED}, ${process.env['FUZZ_RUNS'] ?? 1}x runs`);
const SCALE = Number(process.env['FUZZ_RUNS'] ?? 1);
const TIMEOUT = 60_000 * Math.max(1, SCALE);

type Message = Record<string, any>;

/** Everything a prototype holds, to compare before and after. */
function prototypeSnapshot(): Map<unknown, Map<PropertyKey, unknown>> {
  const snapshot = new Map<unknown, Map<PropertyKey, unknown>>();
  for (const proto of [Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype, Boolean.prototype, Promise.prototype, RegExp.prototype, Error.prototype]) {
    const entries = new Map<PropertyKey, unknown>();
    for (const key of Reflect.ownKeys(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, key)!;
      entries.set(key, d.value ?? d.get);
    }
    entries.set('[[Prototype]]', Object.getPrototypeOf(proto));
    snapshot.set(proto, entries);
  }
  return snapshot;
}

let before: ReturnType<typeof prototypeSnapshot>;
beforeAll(() => {
  before = prototypeSnapshot();
});
afterAll(() => {
  expect(prototypeSnapshot()).toEqual(before);
});

const casesOf = (ids: Ids) =>
  fc.array(fc.oneof({ weight: 6, arbitrary: fuzzCase(ids).map((c) => [c]) }, { weight: 1, arbitrary: duplicatePair(ids) }), { minLength: 1, maxLength: 12 }).map((groups) => groups.flat());

/** Checks the answers against the cases: id-null count, and each id answered exactly as often as expected. */
function judge(cases: FuzzCase[], responses: Message[]): void {
  const expected = new Map<unknown, number>();
  let nulls = 0;
  for (const c of cases) {
    nulls += c.nulls;
    for (const id of c.answered) expected.set(id, (expected.get(id) ?? 0) + 1);
  }
  const got = new Map<unknown, number>();
  let gotNulls = 0;
  for (const r of responses) {
    expect(r['jsonrpc']).toBe('2.0');
    expect('result' in r !== 'error' in r).toBe(true);
    if (r['id'] === null) gotNulls++;
    else got.set(r['id'], (got.get(r['id']) ?? 0) + 1);
  }
  expect(gotNulls, 'responses with id null').toBe(nulls);
  expect(got).toEqual(expected);
  expect(prototypeSnapshot()).toEqual(before);
}

const bytesOf = (body: string | Uint8Array): Buffer => (typeof body === 'string' ? Buffer.from(body) : Buffer.from(body));

describe('runtime fuzzing', () => {
  it(
    'stdio: every request answered once, only JSON lines out, prototypes intact, still serving',
    async () => {
      await fc.assert(
        fc.asyncProperty(casesOf(new Ids()), async (cases) => {
          const input = new PassThrough();
          const output = new PassThrough();
          const done = createServer(buildDefinition(3), handlers, { logger: () => {} }).serveStdio({ input, output });
          let out = '';
          output.setEncoding('utf8');
          output.on('data', (chunk: string) => (out += chunk));
          input.write('{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}\n');
          for (const c of cases) input.write(Buffer.concat([bytesOf(c.body), Buffer.from('\n')]));
          input.end('{"jsonrpc":"2.0","id":"last","method":"ping"}\n');
          await done;
          expect(out.endsWith('\n')).toBe(true);
          const messages = out.slice(0, -1).split('\n').map((line) => JSON.parse(line) as Message);
          const responses = messages.filter((m) => m['method'] === undefined).flatMap((m) => (Array.isArray(m) ? m : [m]));
          expect(responses.shift()!['id']).toBe('init');
          expect(responses.filter((r) => r['id'] === 'last')).toEqual([{ jsonrpc: '2.0', id: 'last', result: {} }]);
          judge(cases, responses.filter((r) => r['id'] !== 'last'));
        }),
        { seed: SEED, numRuns: 120 * SCALE },
      );
    },
    TIMEOUT,
  );

  let listener: HttpListener;
  beforeAll(async () => {
    listener = await createServer(buildDefinition(3), handlers, { logger: () => {} }).listenHttp({});
  });
  afterAll(async () => {
    await listener?.close();
  });

  it(
    'HTTP: every POST answered once with the right status, prototypes intact, still serving',
    async () => {
      const post = (body: string | Uint8Array, session: string): Promise<Response> =>
        fetch(listener.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session },
          body: bytesOf(body),
        });
      await fc.assert(
        fc.asyncProperty(casesOf(new Ids()), async (cases) => {
          const init = await post('{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}', '');
          const session = init.headers.get('mcp-session-id')!;
          await init.text();
          const answers: Promise<{ status: number; text: string; kind: string; sse: boolean }>[] = [];
          for (const c of cases) {
            const answer = post(c.body, session).then(async (r) => ({ status: r.status, text: await r.text(), kind: c.kind, sse: r.headers.get('content-type') === 'text/event-stream' }));
            answers.push(answer);
            // A slow request runs while the next cases are sent; the others are answered first.
            if (c.slow) await new Promise((resolve) => setTimeout(resolve, 5));
            else await answer;
          }
          const settled = await Promise.all(answers);
          const responses: Message[] = [];
          for (const { status, text, kind, sse } of settled) {
            if (status === 202) {
              expect(text).toBe('');
              continue;
            }
            expect([200, 400], `${kind}: ${text.slice(0, 200)}`).toContain(status);
            // A handler that reports before its result answers on an SSE stream: its responses count.
            const message = sse
              ? (text.split('\n').filter((l) => l.startsWith('data: ') && l !== 'data: ').map((l) => JSON.parse(l.slice(6)) as Message).filter((m) => m['method'] === undefined))
              : (JSON.parse(text) as Message | Message[]);
            responses.push(...(Array.isArray(message) ? message : [message]));
            // 400 only for what is not a JSON-RPC message at all.
            if (status === 400) expect([-32700, -32600]).toContain((message as Message)['error']?.['code']);
          }
          judge(cases, responses);
          const last = await post('{"jsonrpc":"2.0","id":"last","method":"ping"}', session);
          expect(await last.json()).toEqual({ jsonrpc: '2.0', id: 'last', result: {} });
          // Sessions are limited (maxSessions): end this one.
          expect((await fetch(listener.url, { method: 'DELETE', headers: { 'mcp-session-id': session } })).status).toBe(204);
        }),
        { seed: SEED, numRuns: 60 * SCALE },
      );
    },
    TIMEOUT,
  );
});
