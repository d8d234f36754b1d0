/**
 * `mcp-gen mock` (issue 17): the official clients call every tool of the weather manifest against
 * the mock and accept every result by their own output validation; answers are the same bytes for a
 * seed and differ across seeds; fixtures override a tool; a broken fixtures file is refused with
 * positions and exit code 2.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as Sdk2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as Sdk1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as Sdk1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect as connectOurs } from '../../examples/client-app/client/client.js';
import { main } from '../../src/cli/main.js';
import { startMock } from '../../src/mock/index.js';

const WEATHER = 'examples/weather/manifest.yaml';
/** Arguments for each weather tool; a few per tool, so several generated values are judged. */
const CALLS: Record<string, Record<string, unknown>[]> = {
  get_weather: [{ location: 'Lisbon' }, { location: 'Oslo', units: 'celsius' }, { location: 'Austin', units: 'fahrenheit' }],
  get_forecast: [{ location: 'Lisbon' }, { location: 'Oslo', days: 7 }, { location: 'Quito', days: 1, units: 'celsius' }],
  climate_report: [{ location: 'Lisbon' }, { location: 'Oslo', years: 30 }],
};
/** The tool calls of one transcript: its lines are initialize, these, a prompt and a resource. */
const TOOL_CALLS = Object.values(CALLS).flat().length;

interface CallResult {
  isError?: unknown;
  structuredContent?: unknown;
  content?: unknown;
}
interface AnyClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-gen-mock-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Lists the tools (the SDKs validate results against the listed outputSchemas), then calls each. */
async function callEveryTool(client: AnyClient): Promise<CallResult[]> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(CALLS).sort());
  const results: CallResult[] = [];
  for (const tool of tools) {
    for (const args of CALLS[tool.name] ?? []) {
      // The SDK rejects a structuredContent that breaks the tool's outputSchema: reaching here is the check.
      const result = (await client.callTool({ name: tool.name, arguments: args })) as CallResult;
      expect(result.isError, JSON.stringify(result)).not.toBe(true);
      expect(result.structuredContent).toBeTypeOf('object');
      // The text block mirrors structuredContent, as the real server's does.
      expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? 'null')).toEqual(result.structuredContent);
      results.push(result);
    }
  }
  return results;
}

type ClientKind = 'ours' | 'sdk1' | 'sdk2';
type Era = '2025-11-25' | '2026-07-28';
const CLIENT_NAMES: Record<ClientKind, string> = { ours: 'our generated client', sdk1: 'SDK 1.x client', sdk2: 'SDK 2.x client' };

/** Why a client cannot speak an era to any server (the combination has no test, only this reason). */
function notApplicable(client: ClientKind, era: Era): string | undefined {
  return client === 'sdk1' && era === '2026-07-28' ? 'the SDK 1.x client speaks the stateful revisions only' : undefined;
}

/** The official clients wrapped to the two calls the test makes; ours through its typed methods. */
async function connectClient(kind: ClientKind, era: Era, location: { url: string } | { command: string; args: string[] }): Promise<AnyClient & { version(): string | undefined }> {
  if (kind === 'ours') {
    const client = await connectOurs({ ...('url' in location ? { url: location.url } : { ...location, stderr: 'ignore' as const }), protocolVersions: [era] });
    return {
      version: () => client.server.protocolVersion,
      listTools: async () => ({ tools: ((await client.request('tools/list', {})) as { tools: { name: string }[] }).tools }),
      // The typed methods resolve with structuredContent validated by the client's own validators
      // (OutputValidationError otherwise); the test reads it back as a result.
      callTool: async ({ name, arguments: args }) => {
        const typed = { get_weather: client.tools.getWeather, get_forecast: client.tools.getForecast, climate_report: client.tools.climateReport }[name] as (input: { location: string }) => Promise<unknown>;
        const structured = await typed(args as { location: string });
        return { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }] };
      },
      close: () => client.close(),
    };
  }
  if (kind === 'sdk1') {
    const client = new Sdk1Client({ name: 'mock-test', version: '1.0.0' });
    let negotiated: string | undefined;
    const transport = 'url' in location ? new Sdk1Http(new URL(location.url)) : new Sdk1Stdio({ ...location, stderr: 'ignore' });
    // The SDK 1.x client tells only its transport which revision the server chose.
    const versioned = transport as { setProtocolVersion?: (version: string) => void };
    const original = versioned.setProtocolVersion?.bind(transport);
    versioned.setProtocolVersion = (version) => {
      negotiated = version;
      original?.(version);
    };
    await client.connect(transport);
    return Object.assign(client as unknown as AnyClient, { version: () => negotiated });
  }
  const client = new Sdk2Client({ name: 'mock-test', version: '2.0.0' }, era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect('url' in location ? new Sdk2Http(new URL(location.url)) : new Sdk2Stdio({ ...location, stderr: 'ignore' }));
  return Object.assign(client as unknown as AnyClient, { version: () => client.getNegotiatedProtocolVersion() });
}

describe('mcp-gen mock against every client, both transports, both eras', () => {
  for (const era of ['2025-11-25', '2026-07-28'] as const) {
    for (const transport of ['stdio', 'http'] as const) {
      for (const kind of ['ours', 'sdk1', 'sdk2'] as const) {
        if (notApplicable(kind, era) !== undefined) continue;
        it(`${CLIENT_NAMES[kind]}, ${transport}, ${era}: every weather tool, each result valid by the client's own output validation`, async () => {
          const mock = transport === 'http' ? await startMock({ manifest: WEATHER, seed: era, transport }) : undefined;
          const location = mock ?? (await startMock({ manifest: WEATHER, seed: era, transport: 'stdio' }));
          try {
            const client = await connectClient(kind, era, location);
            expect(client.version()).toBe(era);
            await callEveryTool(client);
            await client.close();
          } finally {
            await mock?.close();
          }
        }, 60_000);
      }
    }
  }

  it('prompts and resources answer too (SDK 2.x, 2026-07-28)', async () => {
    const mock = await startMock({ manifest: WEATHER, seed: 3, transport: 'http' });
    const client = new Sdk2Client({ name: 'mock-test', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(new Sdk2Http(new URL(mock.url)));
      const prompt = await client.getPrompt({ name: 'plan_outing', arguments: { location: 'Lisbon' } });
      expect(prompt.messages[0]?.content).toMatchObject({ type: 'text', text: expect.stringMatching(/^plan_outing \(location: Lisbon\): /) });
      const read = await client.readResource({ uri: 'weather://stations/42' });
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ uri: 'weather://stations/42', id: '42' });
      await client.close();
    } finally {
      await mock.close();
    }
  }, 60_000);

  it('refuses invalid arguments as the generated server does (a tool error naming the field)', async () => {
    const mock = await startMock({ manifest: WEATHER, transport: 'http' });
    const client = new Sdk1Client({ name: 'mock-test', version: '1.0.0' });
    try {
      await client.connect(new Sdk1Http(new URL(mock.url)));
      const result = (await client.callTool({ name: 'get_weather', arguments: { location: 'Lisbon', units: 'kelvin' } })) as CallResult;
      expect(result.isError).toBe(true);
      expect((result.content as { text: string }[])[0]?.text).toBe(
        'Invalid arguments for tool get_weather: /units must be equal to one of the allowed values (celsius, fahrenheit)',
      );
      await client.close();
    } finally {
      await mock.close();
    }
  }, 60_000);
});

/** Runs the stdio mock with a fixed conversation and returns its stdout, byte for byte. */
async function stdioTranscript(seed: string): Promise<string> {
  const { command, args } = await startMock({ manifest: WEATHER, seed, transport: 'stdio' });
  return transcript(command, args);
}

/** Runs a stdio mock with the fixed conversation (initialize, every call, a prompt, a resource) and returns its stdout. */
async function transcript(command: string, args: string[]): Promise<string> {
  const lines = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    ...Object.entries(CALLS).flatMap(([name, list]) => list.map((a, i) => ({ jsonrpc: '2.0', id: `${name}-${i}`, method: 'tools/call', params: { name, arguments: a } }))),
    { jsonrpc: '2.0', id: 'p', method: 'prompts/get', params: { name: 'plan_outing', arguments: { location: 'Lisbon' } } },
    { jsonrpc: '2.0', id: 'r', method: 'resources/read', params: { uri: 'weather://stations' } },
  ];
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stdin.end(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const code = await new Promise<number | null>((done) => child.on('close', done));
  expect(code).toBe(0);
  return out;
}

describe('mcp-gen mock: determinism and fixtures', () => {
  it('mocks a snapshot file and a live server (--from-url) as it mocks the manifest', async () => {
    const mock = await startMock({ manifest: WEATHER, seed: 1, transport: 'http' });
    try {
      const client = new Sdk1Client({ name: 'mock-test', version: '1.0.0' });
      await client.connect(new Sdk1Http(new URL(mock.url)));
      const snapshot = {
        mcpGenSnapshot: 1,
        protocolVersion: '2025-11-25',
        serverInfo: client.getServerVersion(),
        capabilities: client.getServerCapabilities(),
        tools: (await client.listTools()).tools,
        prompts: (await client.listPrompts()).prompts,
        resources: (await client.listResources()).resources,
        resourceTemplates: (await client.listResourceTemplates()).resourceTemplates,
      };
      await client.close();
      const file = join(dir, 'weather.snapshot.json');
      writeFileSync(file, JSON.stringify(snapshot));
      const bin = join(process.cwd(), 'bin', 'mcp-gen.js');
      for (const source of [[file], ['--from-url', mock.url]]) {
        const lines = (await transcript(process.execPath, [bin, 'mock', ...source, '--seed', '1'])).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { result?: { structuredContent?: unknown; isError?: boolean; messages?: unknown } });
        expect(lines).toHaveLength(TOOL_CALLS + 3);
        for (const line of lines.slice(1, 1 + TOOL_CALLS)) expect(line.result?.isError, JSON.stringify(line)).not.toBe(true);
        expect(lines[1]?.result?.structuredContent, `${source.join(" ")}: ${JSON.stringify(lines[1])}`).toMatchObject({ location: expect.any(String), units: expect.stringMatching(/^(celsius|fahrenheit)$/) });
        expect(lines[1 + TOOL_CALLS]?.result?.messages).toHaveLength(1);
      }
    } finally {
      await mock.close();
    }
  }, 90_000);

  it('is importable as mcp-gen/mock', async () => {
    const entry = (await import('mcp-gen/mock')) as { startMock?: unknown };
    expect(entry.startMock).toBeTypeOf('function');
  });

  it('the same seed gives the same bytes twice; another seed different ones', async () => {
    const [first, again, other] = await Promise.all([stdioTranscript('7'), stdioTranscript('7'), stdioTranscript('8')]);
    expect(first.split('\n').filter(Boolean)).toHaveLength(TOOL_CALLS + 3);
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    // Every generated answer differs, not only one of them.
    const results = (text: string) => text.split('\n').filter(Boolean).slice(1, 1 + TOOL_CALLS).map((l) => JSON.stringify((JSON.parse(l) as { result: unknown }).result));
    const [a, b] = [results(first), results(other)];
    expect(a.filter((r, i) => r !== b[i]).length).toBeGreaterThanOrEqual(TOOL_CALLS - 1);
  }, 60_000);

  it('a fixtures file overrides one tool: a canned result and a canned error, matched on the input', async () => {
    const fixtures = join(dir, 'mock.yaml');
    writeFileSync(
      fixtures,
      [
        'tools:',
        '  get_weather:',
        '    - match: { location: Paris }',
        '      result: { location: Paris, temperature: 21.5, units: celsius, conditions: sunny, humidity: 40 }',
        '    - match: { location: Atlantis }',
        '      error: { message: No weather station under the sea }',
        '',
      ].join('\n'),
    );
    const mock = await startMock({ manifest: WEATHER, seed: 5, fixtures, transport: 'http' });
    const client = new Sdk1Client({ name: 'mock-test', version: '1.0.0' });
    try {
      await client.connect(new Sdk1Http(new URL(mock.url)));
      await client.listTools();
      const paris = (await client.callTool({ name: 'get_weather', arguments: { location: 'Paris', units: 'celsius' } })) as CallResult;
      expect(paris.structuredContent).toEqual({ location: 'Paris', temperature: 21.5, units: 'celsius', conditions: 'sunny', humidity: 40 });
      const atlantis = (await client.callTool({ name: 'get_weather', arguments: { location: 'Atlantis' } })) as CallResult;
      expect(atlantis).toMatchObject({ isError: true, content: [{ type: 'text', text: 'No weather station under the sea' }] });
      // Other arguments, and the other tool, are still generated.
      const lisbon = (await client.callTool({ name: 'get_weather', arguments: { location: 'Lisbon' } })) as CallResult;
      expect(lisbon.isError).not.toBe(true);
      expect(lisbon.structuredContent).not.toEqual(paris.structuredContent);
      await client.close();
    } finally {
      await mock.close();
    }
  }, 60_000);

  it('a schema no value satisfies: the call is a tool error naming the tool and the JSON pointer; the mock keeps serving', async () => {
    const manifest = join(dir, 'impossible.yaml');
    writeFileSync(
      manifest,
      [
        'server: { name: impossible, version: 1.0.0 }',
        'tools:',
        '  - name: plan',
        '    inputSchema: { type: object }',
        '    outputSchema:',
        '      type: object',
        '      properties: { when: { type: string, minLength: 5, maxLength: 2 } }',
        '      required: [when]',
        '  - name: fine',
        '    inputSchema: { type: object }',
        '    outputSchema: { type: object, properties: { ok: { type: boolean } }, required: [ok] }',
        '',
      ].join('\n'),
    );
    // The command says so at start-up, on stderr.
    const child = spawn(process.execPath, [join(process.cwd(), 'bin', 'mcp-gen.js'), 'mock', manifest], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    expect(await new Promise((done) => child.on('close', done))).toBe(0);
    expect(stderr).toBe('warning: cannot generate a value for tool plan (outputSchema) after 40 attempts: at /when: minLength 5 is above maxLength 2\n');
    const mock = await startMock({ manifest, transport: 'http' });
    const client = new Sdk1Client({ name: 'mock-test', version: '1.0.0' });
    try {
      await client.connect(new Sdk1Http(new URL(mock.url)));
      const result = (await client.callTool({ name: 'plan', arguments: {} })) as CallResult;
      expect(result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'cannot generate a value for tool plan (outputSchema) after 40 attempts: at /when: minLength 5 is above maxLength 2' }],
      });
      expect(((await client.callTool({ name: 'fine', arguments: {} })) as CallResult).structuredContent).toMatchObject({ ok: expect.any(Boolean) });
      await client.close();
    } finally {
      await mock.close();
    }
  }, 60_000);

  it('a broken fixtures file: every problem with file:line:col and pointer, exit 2', async () => {
    const fixtures = join(dir, 'broken.yaml');
    writeFileSync(
      fixtures,
      [
        'tools:',
        '  get_weather:',
        '    - match: { location: Paris }',
        '      result: { location: Paris, temperature: hot, units: celsius, conditions: sunny, humidity: 40 }',
        '    - match: { location: Rome }',
        '    - match: [Rome]',
        '      error: { message: 3 }',
        '  get_wether:',
        '    - result: {}',
        'extra: 1',
        '',
      ].join('\n'),
    );
    const err: string[] = [];
    const code = await main(['mock', WEATHER, '--fixtures', fixtures], { out: () => {}, err: (line) => err.push(line) });
    expect(code).toBe(2);
    const text = err.join('\n');
    expect(text).toContain(`${fixtures}:4:47: the result does not match the tool's outputSchema: must be number (at /tools/get_weather/0/result/temperature)`);
    expect(text).toContain(`${fixtures}:5:7: a fixture needs \`result\` or \`error\` (at /tools/get_weather/1)`);
    expect(text).toContain(`${fixtures}:6:14: \`match\` must be a mapping of argument names to values (at /tools/get_weather/2/match)`);
    expect(text).toContain(`${fixtures}:7:14: \`error\` must be a mapping with a string \`message\` (at /tools/get_weather/2/error)`);
    expect(text).toMatch(new RegExp(`${fixtures.replace(/[.]/g, '\\.')}:8:3: no tool named "get_wether" in the server \\(at /tools/get_wether\\) — its tools: get_weather, get_forecast`));
    expect(text).toContain(`${fixtures}:10:1: unknown member "extra" (at /extra)`);
    expect(text).toContain('6 problems found');
  });
});
