import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LAZY_CLIENT_METHODS,
  RUNTIME_CLIENT_METHODS,
  RUNTIME_SERVER_REQUEST_METHODS,
  planRuntimeValidators,
} from '../../src/emit/validators/runtime-validators.js';
import { createAjv } from '../../src/emit/validators/ajv-instance.js';
import { generate } from './samples.js';
import { importEmitted, loadRevision, repoRoot, tempDir, type ValidatorFn } from './support.js';

type Table = Readonly<Record<string, ValidatorFn>>;

const dir = tempDir('runtime-validators');
afterAll(() => dir.remove());

let initializeValidators: Table;
let requestValidators: Table;
let resultValidators: Table;
/** Both request modules: what the runtime checks client messages with. */
let envelopes: Table;

beforeAll(async () => {
  const files = planRuntimeValidators(loadRevision('2025-11-25').root);
  const load = async (name: string): Promise<Record<string, Table>> =>
    (await importEmitted(dir, name, files.find((f) => f.path === `runtime/${name}.js`)!.content)) as unknown as Record<string, Table>;
  initializeValidators = (await load('initialize-validators'))['initializeValidators']!;
  requestValidators = (await load('request-validators'))['requestValidators']!;
  envelopes = { ...initializeValidators, ...requestValidators };
  resultValidators = (await load('result-validators'))['resultValidators']!;
});

function verdict(table: Table, key: string, message: unknown): { ok: boolean; errors: unknown } {
  const validate = table[key];
  if (!validate) throw new Error(`no validator for ${key}`);
  const ok = validate(message);
  return { ok, errors: validate.errors };
}

describe('planRuntimeValidators', () => {
  it('plans the .js and .d.ts under runtime/, generated-owned', () => {
    const files = planRuntimeValidators(loadRevision('2025-11-25').root);
    expect(files.map((f) => [f.path, f.owner, f.format])).toEqual([
      ['runtime/initialize-validators.js', 'generated', 'none'],
      ['runtime/initialize-validators.d.ts', 'generated', 'typescript'],
      ['runtime/request-validators.js', 'generated', 'none'],
      ['runtime/request-validators.d.ts', 'generated', 'typescript'],
      ['runtime/result-validators.js', 'generated', 'none'],
      ['runtime/result-validators.d.ts', 'generated', 'typescript'],
    ]);
  });

  it('covers every method the runtime handles, in a frozen table without a prototype', () => {
    // initialize alone in the module a start loads; the others in the one loaded after it.
    expect(Object.keys(initializeValidators)).toEqual(['initialize']);
    expect(Object.keys(requestValidators)).toEqual(LAZY_CLIENT_METHODS);
    expect([...Object.keys(initializeValidators), ...LAZY_CLIENT_METHODS].sort()).toEqual([...RUNTIME_CLIENT_METHODS].sort());
    expect(Object.keys(resultValidators)).toEqual(RUNTIME_SERVER_REQUEST_METHODS);
    expect(Object.getPrototypeOf(requestValidators)).toBeNull();
    expect(Object.isFrozen(requestValidators)).toBe(true);
    expect(requestValidators['constructor']).toBeUndefined();
  });

  it('declares no schema literal that nothing uses (they only cost start-up time)', () => {
    const files = planRuntimeValidators(loadRevision('2025-11-25').root);
    for (const file of files.filter((f) => f.path.endsWith('.js'))) {
      const declared = [...file.content.matchAll(/const (schema\d+) = /g)].map((m) => m[1]!);
      for (const name of declared) {
        expect(file.content.match(new RegExp(`\\b${name}\\b`, 'g'))!.length, `${file.path}: ${name}`).toBeGreaterThan(1);
      }
    }
  });

  it('fails clearly when the schema lacks what the runtime needs', () => {
    expect(() => planRuntimeValidators({ $defs: {} })).toThrow(/no ClientRequest union/);
  });
});

describe('envelopes (2025-11-25)', () => {
  const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_weather', arguments: { location: 'Paris' } } };

  it('accepts a real tools/call message', () => {
    expect(verdict(requestValidators, 'tools/call', call).ok).toBe(true);
  });

  it('rejects tools/call without params.name, saying where', () => {
    const { ok, errors } = verdict(requestValidators, 'tools/call', { ...call, params: { arguments: {} } });
    expect(ok).toBe(false);
    expect(errors).toEqual([expect.objectContaining({ instancePath: '/params', keyword: 'required', params: { missingProperty: 'name' } })]);
  });

  it('rejects tools/call whose arguments are not an object', () => {
    for (const args of [[1, 2], 'x', null]) {
      const { ok, errors } = verdict(requestValidators, 'tools/call', { ...call, params: { name: 'x', arguments: args } });
      expect(ok).toBe(false);
      expect(errors).toEqual([expect.objectContaining({ instancePath: '/params/arguments', message: 'must be object' })]);
    }
  });

  it('checks the envelope itself: jsonrpc, id, method', () => {
    expect(verdict(requestValidators, 'tools/call', { ...call, jsonrpc: '1.0' }).ok).toBe(false);
    expect(verdict(requestValidators, 'tools/call', { ...call, id: 1.5 }).ok).toBe(false);
    expect(verdict(requestValidators, 'tools/call', { ...call, id: undefined }).ok).toBe(false);
    expect(verdict(requestValidators, 'tools/call', { ...call, method: 'tools/list' }).ok).toBe(false);
    expect(verdict(requestValidators, 'tools/list', { jsonrpc: '2.0', method: 'tools/list' }).ok).toBe(false);
    expect(verdict(requestValidators, 'notifications/initialized', { jsonrpc: '2.0', method: 'notifications/initialized' }).ok).toBe(true);
  });

  it('accepts a ping with extra top-level members: 2025-11-25 leaves JSON-RPC messages open', () => {
    const schema = loadRevision('2025-11-25').defs['PingRequest'] as { additionalProperties?: unknown };
    expect(schema.additionalProperties).toBeUndefined();
    expect(verdict(requestValidators, 'ping', { jsonrpc: '2.0', id: 'p', method: 'ping', junk: { any: 1 } }).ok).toBe(true);
    expect(verdict(requestValidators, 'ping', { jsonrpc: '2.0', id: 'p', method: 'ping', params: 'junk' }).ok).toBe(false);
  });

  it('checks notifications/progress and notifications/cancelled params', () => {
    const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1, total: 2 } };
    expect(verdict(requestValidators, 'notifications/progress', progress).ok).toBe(true);
    expect(verdict(requestValidators, 'notifications/progress', { ...progress, params: { progressToken: 't' } }).ok).toBe(false);
    expect(verdict(requestValidators, 'notifications/cancelled', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'x' } }).ok).toBe(true);
  });

  it('checks the results of the server’s own requests', () => {
    const sampled = { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm', stopReason: 'endTurn' };
    expect(verdict(resultValidators, 'sampling/createMessage', sampled).ok).toBe(true);
    expect(verdict(resultValidators, 'sampling/createMessage', { ...sampled, role: 'system' }).ok).toBe(false);
    expect(verdict(resultValidators, 'elicitation/create', { action: 'accept', content: { a: 'b', n: 1 } }).ok).toBe(true);
    expect(verdict(resultValidators, 'elicitation/create', { action: 'maybe' }).ok).toBe(false);
    expect(verdict(resultValidators, 'roots/list', { roots: [{ uri: 'file:///home/u/project', name: 'p' }] }).ok).toBe(true);
    expect(verdict(resultValidators, 'roots/list', { roots: [{ uri: 'not a uri' }] }).ok).toBe(false);
    expect(verdict(resultValidators, 'roots/list', {}).ok).toBe(false);
  });
});

describe('messages of older stateful revisions', () => {
  // The runtime negotiates 2024-11-05 … 2025-11-25 but checks envelopes with 2025-11-25's schema:
  // what an older client may send must still pass.
  for (const name of ['2024-11-05', '2025-03-26', '2025-06-18'] as const) {
    it(`${name}: messages valid there pass the 2025-11-25 envelopes`, () => {
      const revision = loadRevision(name);
      const reference = createAjv(revision.dialect, { standalone: false });
      reference.addSchema(revision.root, 'old');
      const failures: string[] = [];
      let checked = 0;
      for (const method of RUNTIME_CLIENT_METHODS) {
        const definition = Object.keys(revision.defs).find(
          (d) => (revision.defs[d] as { properties?: { method?: { const?: unknown } } }).properties?.method?.const === method,
        )!;
        const validateOld = reference.getSchema(`old#/${revision.defsKeyword}/${definition}`)!;
        for (const full of [false, true]) {
          // Before 2025-06-18 the definitions leave `jsonrpc` and `id` to JSONRPCRequest.
          const body = generate(revision.defs, revision.defs[definition], { full }) as Record<string, unknown>;
          if (!validateOld(body)) throw new Error(`sample for ${method} is not valid in ${name}: ${JSON.stringify(validateOld.errors)}`);
          const message = { ...body, jsonrpc: '2.0', ...(method.startsWith('notifications/') ? {} : { id: 1 }) };
          checked++;
          const { ok, errors } = verdict(envelopes, method, message);
          if (!ok) failures.push(`${method} (full=${full}): ${JSON.stringify(errors)}`);
        }
      }
      expect(checked).toBe(RUNTIME_CLIENT_METHODS.length * 2);
      expect(failures).toEqual([]);
    });
  }
});

/** A transport that records what the official SDK client sends and answers each request. */
class RecordingTransport implements Transport {
  readonly sent: JSONRPCMessage[] = [];
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Requests left unanswered, so the client cancels them. */
  constructor(private readonly unanswered: ReadonlySet<string>) {}

  async start(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
    if (!('method' in message) || !('id' in message) || this.unanswered.has(message.method)) return;
    const result = RESULTS[message.method] ?? {};
    queueMicrotask(() => this.onmessage?.({ jsonrpc: '2.0', id: message.id, result } as JSONRPCMessage));
  }
}

const RESULTS: Record<string, Record<string, unknown>> = {
  initialize: {
    protocolVersion: '2025-11-25',
    capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, logging: {}, completions: {} },
    serverInfo: { name: 'recorder', version: '1.0.0' },
  },
  'tools/list': { tools: [] },
  'tools/call': { content: [{ type: 'text', text: 'ok' }] },
  'resources/list': { resources: [] },
  'resources/templates/list': { resourceTemplates: [] },
  'resources/read': { contents: [] },
  'prompts/list': { prompts: [] },
  'prompts/get': { messages: [] },
  'completion/complete': { completion: { values: [] } },
};

describe('messages the official SDK client sends', () => {
  it('pass the envelope validators of their method', async () => {
    const transport = new RecordingTransport(new Set(['tools/call']));
    const client = new Client({ name: 'sdk-client', version: '1.0.0' }, { capabilities: { roots: { listChanged: true }, sampling: {} } });
    await client.connect(transport);
    await client.ping();
    await client.listTools();
    await client.listResources();
    await client.listResourceTemplates();
    await client.readResource({ uri: 'file:///a.txt' });
    await client.subscribeResource({ uri: 'file:///a.txt' });
    await client.unsubscribeResource({ uri: 'file:///a.txt' });
    await client.listPrompts();
    await client.getPrompt({ name: 'p', arguments: { a: 'b' } });
    await client.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: 'b' } });
    await client.setLoggingLevel('info');
    await client.sendRootsListChanged();
    // tools/call is left unanswered, then aborted: the client sends notifications/cancelled.
    const abort = new AbortController();
    const pending = client.callTool({ name: 'get_weather', arguments: { location: 'Paris' } }, undefined, {
      signal: abort.signal,
      onprogress: () => {},
    });
    abort.abort('user gave up');
    await expect(pending).rejects.toThrow();
    await client.close();

    const methods = transport.sent.map((m) => ('method' in m ? m.method : '(response)'));
    const expected = RUNTIME_CLIENT_METHODS.filter((m) => m !== 'notifications/progress');
    expect([...new Set(methods)].sort()).toEqual([...expected].sort());
    for (const message of transport.sent) {
      const method = (message as { method: string }).method;
      expect({ method, ...verdict(envelopes, method, message) }).toEqual({ method, ok: true, errors: null });
    }
  });
});

describe('the committed generated/runtime/request-validators.js', () => {
  const file = join(repoRoot, 'generated', 'runtime', 'request-validators.js');

  it('exists with its .d.ts and imports in a plain node process', () => {
    expect(existsSync(file)).toBe(true);
    expect(existsSync(file.replace(/\.js$/, '.d.ts'))).toBe(true);
    expect(readFileSync(file, 'utf8')).not.toMatch(/\brequire\s*\(|\bimport\b|ajv/);
    const script = `
      const { requestValidators } = await import(${JSON.stringify(pathToFileURL(file).href)});
      const ok = requestValidators['tools/call']({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } });
      const bad = requestValidators['tools/call']({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} });
      process.stdout.write(JSON.stringify([ok, bad, Object.keys(requestValidators).length]));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir.path, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([true, false, LAZY_CLIENT_METHODS.length]);
  });

  it('stays small, with the results the server rarely needs in a module of their own', () => {
    // Measured at about 131 kB (17 envelopes and what they reach) and 73 kB (3 results).
    expect(readFileSync(file).byteLength).toBeLessThan(170_000);
    expect(readFileSync(file, 'utf8')).not.toMatch(/resultValidators/);
    expect(readFileSync(file.replace('request-', 'result-')).byteLength).toBeLessThan(100_000);
  });
});
