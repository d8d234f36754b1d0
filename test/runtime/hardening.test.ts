/**
 * Issue 6, findings 6-9, against a generated server over stdio and Streamable HTTP: non-finite
 * numbers, ids beyond 2^53, echoes of huge input, and a catastrophic pattern.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUOTED_LENGTH } from '../../src/runtime/protocol/jsonrpc.js';
import { buildHardeningServer, HttpSession, StdioProcess, startHttpProcess, type BuiltServer, type Message } from './hardening-server.js';
import type { ChildProcess } from 'node:child_process';

let built: BuiltServer;
let stdio: StdioProcess;
let http: HttpSession;
let httpChild: ChildProcess;

beforeAll(async () => {
  built = await buildHardeningServer();
  stdio = new StdioProcess(built.main);
  await stdio.initialize();
  const started = await startHttpProcess(built.main);
  httpChild = started.child;
  http = new HttpSession(started.url);
  await http.initialize();
}, 120_000);

afterAll(async () => {
  stdio?.kill();
  httpChild?.kill();
  built?.remove();
});

const toolText = (m: Message | undefined): string => m?.['result']?.['content']?.[0]?.['text'] as string;

/** The same raw line over both transports; each answer parsed. */
async function both(id: number, line: (id: number) => string): Promise<[Message, Message]> {
  const overStdio = stdio.response(id);
  stdio.send(line(id));
  const overHttp = await http.send(line(id));
  return [await overStdio, overHttp.json!];
}

describe('finding 6: numbers JSON cannot carry', () => {
  it('refuses 1e400 and -1e400 for an integer input (they parse to Infinity)', async () => {
    for (const literal of ['1e400', '-1e400']) {
      const answers = await both(literal === '1e400' ? 601 : 602, (id) =>
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"count","arguments":{"n":${literal}}}}`,
      );
      for (const answer of answers) {
        expect(answer['result']['isError']).toBe(true);
        expect(toolText(answer)).toBe('Invalid arguments for tool count: /n must be integer');
        expect(answer['result']['structuredContent']).toBeUndefined();
      }
    }
  });

  it('refuses 1e400 for a number input', async () => {
    const answers = await both(603, (id) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"ratio","arguments":{"a":1e400,"b":1}}}`,
    );
    for (const answer of answers) expect(toolText(answer)).toBe('Invalid arguments for tool ratio: /a must be number');
  });

  it('refuses a non-finite structuredContent number (sent as null) instead of a success', async () => {
    for (const [id, args] of [[604, { a: 1, b: 0 }], [605, { a: 0, b: 0 }]] as const) {
      const answers = await both(id, (i) => JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'ratio', arguments: args } }));
      for (const answer of answers) {
        expect(answer['result']['isError']).toBe(true);
        expect(answer['result']['structuredContent']).toBeUndefined();
        expect(toolText(answer)).toBe('Tool ratio returned structured content that does not match its outputSchema: /value must be number');
      }
    }
  });

  it('still answers finite numbers as a success', async () => {
    const answers = await both(606, (id) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"count","arguments":{"n":21}}}`,
    );
    for (const answer of answers) expect(answer['result']['structuredContent']).toEqual({ n: 21, doubled: 42 });
  });
});

describe('finding 7: ids beyond 2^53', () => {
  it('refuses an unsafe integer id with -32600 and id null, and keeps serving', async () => {
    for (const literal of ['9007199254740993', '-9007199254740993', '1e20']) {
      const line = `{"jsonrpc":"2.0","id":${literal},"method":"ping"}`;
      const before = stdio.messages.length;
      stdio.send(line);
      const pong = await stdio.call(701, 'ping');
      const stdioAnswer = stdio.messages.slice(before).find((m) => m['error'] !== undefined)!;
      const httpAnswer = await http.send(line);
      expect(httpAnswer.status).toBe(400);
      for (const answer of [stdioAnswer, httpAnswer.json!]) {
        expect(answer['id']).toBeNull();
        expect(answer['error']['code']).toBe(-32600);
        expect(answer['error']['message']).toContain('2^53');
      }
      expect(pong['result']).toEqual({});
      stdio.messages.length = 0;
    }
  });

  it('echoes the largest safe integer id exactly', async () => {
    const line = '{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}';
    const before = stdio.lines.length;
    stdio.send(line);
    await stdio.response(9007199254740991);
    expect(stdio.lines.slice(before).join('\n')).toContain('"id":9007199254740991,');
    expect((await http.send(line)).text).toContain('"id":9007199254740991,');
  });
});

describe('finding 8: errors quote at most a bounded piece of the input', () => {
  const huge = 'x'.repeat(1 << 20);
  const bound = MAX_QUOTED_LENGTH + 200;

  it('an unknown 1 MB method name', async () => {
    const answers = await both(801, (id) => JSON.stringify({ jsonrpc: '2.0', id, method: huge }));
    for (const answer of answers) {
      expect(answer['error']['code']).toBe(-32601);
      expect(answer['error']['message'].length).toBeLessThan(bound);
      expect(answer['error']['message']).toContain(`(${huge.length} characters)`);
    }
  });

  it('an unknown 1 MB tool name, a 1 MB property name, a 1 MB logging level', async () => {
    const cases: [unknown, string][] = [
      [{ method: 'tools/call', params: { name: huge, arguments: {} } }, 'error'],
      [{ method: 'tools/call', params: { name: 'count', arguments: { [huge]: 1, n: 1 } } }, 'tool'],
      // The envelope validator answers this one, naming the allowed levels only.
      [{ method: 'logging/setLevel', params: { level: huge } }, 'envelope'],
    ];
    let id = 810;
    for (const [body, kind] of cases) {
      id++;
      const answers = await both(id, (i) => JSON.stringify({ jsonrpc: '2.0', id: i, ...(body as object) }));
      for (const answer of answers) {
        const text = kind !== 'tool' ? (answer['error']['message'] as string) : toolText(answer);
        expect(JSON.stringify(answer).length).toBeLessThan(bound + 200);
        if (kind !== 'envelope') expect(text).toContain('characters)');
        else expect(text).toContain('must be equal to one of the allowed values');
      }
    }
  });

  it('a 1 MB protocolVersion object in initialize', async () => {
    const fresh = new StdioProcess(built.main);
    try {
      const answer = await fresh.call(1, 'initialize', { protocolVersion: { v: huge }, capabilities: {}, clientInfo: { name: 't', version: '1' } });
      expect(answer['error']['code']).toBe(-32602);
      expect(JSON.stringify(answer).length).toBeLessThan(bound + 400);
    } finally {
      fresh.kill();
    }
  });
});

describe('finding 9: a pattern that backtracks catastrophically', () => {
  it('answers a crafted argument and the next request promptly, over stdio and HTTP', async () => {
    const evil = 'a'.repeat(30_000) + '!';
    const started = performance.now();
    const refused = stdio.callTool(901, 'match', { s: evil });
    const next = stdio.callTool(902, 'echo', { text: 'still here' });
    expect(toolText(await refused)).toBe('Invalid arguments for tool match: /s must match pattern "^(a+)+$"');
    expect(toolText(await next)).toBe('still here');
    const overHttp = await http.callTool(903, 'match', { s: evil });
    expect(toolText(overHttp.json)).toBe('Invalid arguments for tool match: /s must match pattern "^(a+)+$"');
    expect(toolText((await http.callTool(904, 'echo', { text: 'still here' })).json)).toBe('still here');
    // With RegExp, 30 001 characters against ^(a+)+$ would not finish in this lifetime.
    expect(performance.now() - started).toBeLessThan(5000);
    expect(toolText(await stdio.callTool(905, 'match', { s: 'aaaa' }))).toBe('matched 4 characters');
  });
});
