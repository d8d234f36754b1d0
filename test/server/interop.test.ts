/**
 * The committed weather example, built with tsc as a user would, driven by the official MCP SDK
 * client over stdio and Streamable HTTP. The SDK checks every structured result against the tool's
 * outputSchema itself. A variant whose handlers lie about their output (one through `as any`, one
 * with a property the schema forbids, which TypeScript lets through) must be refused by the runtime.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, loadModel, plan, repoRoot, startHttpServer, tempDir, write } from './support.js';

const example = join(repoRoot, 'examples', 'weather', 'server');
const work = tempDir('server-interop');
const running: ChildProcess[] = [];

/** A copy of the example whose handlers return what their outputSchema forbids. */
function buildLyingVariant(): string {
  const variant = join(work, 'variant');
  cpSync(example, variant, { recursive: true, filter: (src) => !src.startsWith(join(example, 'build')) });
  writeFileSync(
    join(variant, 'handlers', 'tools', 'getWeather.ts'),
    `import type { ToolHandlers } from '../../generated/types.js';

export const getWeather: ToolHandlers['get_weather'] = async (input) =>
  // Forced past the type checker: temperature must be a number and four properties are missing.
  ({ structuredContent: { location: input.location, temperature: 'hot' } }) as any;
`,
  );
  writeFileSync(
    join(variant, 'handlers', 'tools', 'getForecast.ts'),
    `import type { ToolHandlers } from '../../generated/types.js';

// Compiles (TypeScript does not check excess properties here), but the schema says
// additionalProperties: false.
export const getForecast: ToolHandlers['get_forecast'] = async (input) => ({
  structuredContent: { location: input.location, units: 'celsius', days: [], wind: 'strong' },
});
`,
  );
  return build(variant, join(work, 'variant-build'));
}

/** The hostile golden case, generated afresh, stubs untouched. */
async function buildHostile(): Promise<string> {
  const manifest = join(repoRoot, 'test', 'fixtures', 'server', 'hostile', 'manifest.yaml');
  const project = join(work, 'hostile');
  await write(project, await plan(await loadModel(manifest)), manifest);
  return build(project, join(work, 'hostile-build'));
}

let exampleMain: string;
let variantMain: string;
let hostileMain: string;

beforeAll(async () => {
  exampleMain = build(example, join(work, 'example-build'));
  variantMain = buildLyingVariant();
  hostileMain = await buildHostile();
}, 300_000);

afterAll(() => {
  for (const child of running) child.kill();
  rmSync(work, { recursive: true, force: true });
});

const startHttp = (main: string): Promise<URL> => startHttpServer(main, running);

type Connect = (main: string) => Promise<Transport>;

const transports: Record<string, Connect> = {
  stdio: async (main) => new StdioClientTransport({ command: process.execPath, args: [main], stderr: 'pipe' }),
  'Streamable HTTP': async (main) => new StreamableHTTPClientTransport(await startHttp(main)),
};

async function connect(how: Connect, main: string): Promise<Client> {
  const client = new Client({ name: 'mcp-gen-interop', version: '1.0.0' });
  await client.connect(await how(main));
  return client;
}

for (const [name, how] of Object.entries(transports)) {
  describe(`weather example over ${name}, official SDK client`, () => {
    let client: Client;
    beforeAll(async () => {
      client = await connect(how, exampleMain);
    });
    afterAll(async () => {
      await client?.close();
    });

    it('initializes with the manifest identity and capabilities', () => {
      expect(client.getServerVersion()).toEqual({ name: 'weather', version: '1.0.0', title: 'Weather' });
      // climate_report may run as a task: the 2025-11-25 session is told so.
      expect(client.getServerCapabilities()).toEqual({
        tools: {},
        resources: {},
        prompts: {},
        logging: {},
        completions: {},
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      });
      expect(client.getInstructions()).toMatch(/get_weather/);
    });

    it('lists the tools with their schemas', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['get_weather', 'get_forecast', 'climate_report']);
      expect(tools[0]?.outputSchema?.required).toEqual(['location', 'temperature', 'units', 'conditions', 'humidity']);
    });

    it('calls get_weather; the SDK accepts the structured result', async () => {
      const result = await client.callTool({ name: 'get_weather', arguments: { location: 'Lisbon', units: 'fahrenheit' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ location: 'Lisbon', units: 'fahrenheit' });
      expect(typeof (result.structuredContent as { temperature: unknown }).temperature).toBe('number');
    });

    it('calls get_forecast; the array of items comes back structured', async () => {
      const result = await client.callTool({ name: 'get_forecast', arguments: { location: 'Oslo', days: 2 } });
      expect(result.isError).toBeFalsy();
      const forecast = result.structuredContent as { days: { date: string }[] };
      expect(forecast.days.map((d) => d.date)).toEqual(['2025-06-02', '2025-06-03']);
      expect(result.content).toEqual([expect.objectContaining({ type: 'text', text: expect.stringContaining('Forecast for Oslo') })]);
    });

    it('answers invalid arguments with a tool error', async () => {
      const result = await client.callTool({ name: 'get_weather', arguments: { units: 'kelvin' } });
      expect(result.isError).toBe(true);
    });

    it('reads the resource and a templated resource', async () => {
      const list = await client.readResource({ uri: 'weather://stations' });
      expect(JSON.parse((list.contents[0] as { text: string }).text)).toHaveLength(3);
      const one = await client.readResource({ uri: 'weather://stations/osl' });
      expect(JSON.parse((one.contents[0] as { text: string }).text)).toMatchObject({ id: 'osl', name: 'Oslo' });
      const templates = await client.listResourceTemplates();
      expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['weather://stations/{id}']);
    });

    it('gets the prompt with its arguments', async () => {
      const { prompts } = await client.listPrompts();
      expect(prompts[0]?.arguments?.map((a) => [a.name, a.required ?? false])).toEqual([
        ['location', true],
        ['activity', false],
      ]);
      const prompt = await client.getPrompt({ name: 'plan_outing', arguments: { location: 'Oslo', activity: 'hiking' } });
      expect(prompt.messages[0]?.content).toMatchObject({ type: 'text', text: expect.stringContaining('hiking in the next three days') });
    });
  });

  describe(`handlers returning non-conforming output, over ${name}`, () => {
    let client: Client;
    beforeAll(async () => {
      client = await connect(how, variantMain);
      await client.listTools(); // the SDK validates structured results only for tools it has listed
    });
    afterAll(async () => {
      await client?.close();
    });

    // Had the runtime sent the result, the SDK would have thrown its own output-validation error;
    // a tool error without structuredContent means the runtime refused it first.
    it('refuses a result forced through `as any`', async () => {
      const result = await client.callTool({ name: 'get_weather', arguments: { location: 'Lisbon' } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(JSON.stringify(result.content)).toMatch(/outputSchema/);
    });

    it('refuses a property the outputSchema forbids', async () => {
      const result = await client.callTool({ name: 'get_forecast', arguments: { location: 'Oslo' } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(JSON.stringify(result.content)).toMatch(/outputSchema/);
    });
  });
}

describe('hostile names end to end (stdio, official SDK client)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(transports['stdio'] as Connect, hostileMain);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  it('lists every tool under its wire name and reaches each stub, __proto__ and toString included', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(['__proto__', 'constructor', 'class', '1abc', 'get-user', 'get_user', 'toString', 'handlers', 'resources']);
    for (const name of names) {
      const args = name === '__proto__' ? JSON.parse('{"__proto__":"x"}') : name.startsWith('get') ? { id: '1' } : {};
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      expect(JSON.stringify(result.content), name).toContain(`${name} is not implemented yet: edit handlers/tools/`);
    }
  });

  it('serves resources and prompts whose names are full of quotes and comment markers', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["file:///it's/*/$x?a=*/export/*", 'urn:__proto__']);
    await expect(client.readResource({ uri: 'urn:__proto__' })).rejects.toThrow(/resource urn:__proto__ is not implemented yet/);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['say "hi" */ ${x}']);
    await expect(client.getPrompt({ name: 'say "hi" */ ${x}', arguments: JSON.parse('{"__proto__":"v"}') })).rejects.toThrow(
      /is not implemented yet: edit handlers\/prompts\.ts/,
    );
  });
});

describe('npm run -s example:weather', () => {
  it('builds silently and speaks nothing but JSON-RPC on stdout', async () => {
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_weather', arguments: { location: 'Oslo' } } },
    ];
    const child = spawn('npm', ['run', '-s', 'example:weather'], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
    running.push(child);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdin.end(messages.map((m) => JSON.stringify(m)).join('\n') + '\n');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const replies = lines.map((line) => JSON.parse(line) as { jsonrpc: string; id: number; result: { protocolVersion?: string; structuredContent?: unknown } });
    expect(replies.map((r) => [r.jsonrpc, r.id])).toEqual([
      ['2.0', 1],
      ['2.0', 2],
    ]);
    expect(replies[0]?.result.protocolVersion).toBe('2025-06-18');
    expect(replies[1]?.result.structuredContent).toMatchObject({ location: 'Oslo' });
  }, 180_000);
});
