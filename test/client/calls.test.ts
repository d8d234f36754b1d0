/**
 * The generated client at run time: output validation on the very first call, typed errors,
 * cancellation, timeouts, routing by message kind, stdio shutdown; and a full round trip against
 * the weather example's generated server over Streamable HTTP.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../examples/weather/server/generated/server.js';
import { handlers } from '../../examples/weather/server/handlers/index.js';
import type { HttpListener } from '../../src/runtime/index.js';
import { generate, importClient, repoRoot } from './support.js';

type WeatherModule = typeof import('../../examples/client-app/client/client.js');

const liar = join(repoRoot, 'test/client/fixtures/lying-server.mjs');
let weather: WeatherModule;

beforeAll(async () => {
  const { dir, run } = await generate(['examples/weather/manifest.yaml']);
  expect(run.code, run.err).toBe(0);
  weather = await importClient<WeatherModule>(dir);
}, 60_000);

function spawnLiar(env: Record<string, string> = {}) {
  const log: string[] = [];
  const connecting = weather.connect({
    command: process.execPath,
    args: [liar],
    env,
    stderr: (text) => log.push(...text.split('\n').filter((l) => l !== '')),
    shutdownGraceMs: 300,
    handlers: { roots: () => ({ roots: [{ uri: 'file:///home' }] }) },
  });
  return { connecting, log };
}

describe('against a server that lies', () => {
  it('rejects the first call with OutputValidationError, keeping the raw result, without any tools/list', async () => {
    const { connecting, log } = spawnLiar();
    const client = await connecting;
    const error = await client.tools.getWeather({ location: 'Lisbon' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(weather.OutputValidationError);
    const validation = error as InstanceType<typeof weather.OutputValidationError>;
    expect(validation.result).toEqual({ content: [{ type: 'text', text: '{}' }], structuredContent: { temperature: 'hot' } });
    expect(validation.message).toMatch(/outputSchema/);
    expect(validation.issues.length).toBeGreaterThan(0);
    await client.close();
    expect(log.some((l) => l.startsWith('got tools/list'))).toBe(false);
    expect(log.filter((l) => l.startsWith('got tools/call'))).toHaveLength(1);
  });

  it('rejects isError results with ToolError and a result without structuredContent with OutputValidationError', async () => {
    const client = await spawnLiar().connecting;
    const failed = await client.tools.getForecast({ location: 'error' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(weather.ToolError);
    expect((failed as InstanceType<typeof weather.ToolError>).content).toEqual([{ type: 'text', text: 'no such place' }]);
    const bare = await client.tools.getForecast({ location: 'bare' }).catch((e: unknown) => e);
    expect(bare).toBeInstanceOf(weather.OutputValidationError);
    await client.close();
  });

  it('routes a server request that reuses the id of the pending client request by kind', async () => {
    const client = await spawnLiar().connecting;
    const result = await client.tools.getForecast({ location: 'ask' });
    expect(result).toEqual({ location: 'file:///home', units: 'celsius', days: [] });
    await client.close();
  });

  it('sends notifications/cancelled on abort and on timeout', async () => {
    const { connecting, log } = spawnLiar();
    const client = await connecting;
    const controller = new AbortController();
    const call = client.tools.getForecast({ location: 'hang' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user gave up')), 50);
    await expect(call).rejects.toThrow('user gave up');
    await expect(client.tools.getForecast({ location: 'hang' }, { timeoutMs: 50 })).rejects.toBeInstanceOf(weather.RequestTimeoutError);
    await new Promise((r) => setTimeout(r, 100));
    await client.close();
    expect(log.filter((l) => l.startsWith('got notifications/cancelled'))).toHaveLength(2);
  });

  it('shuts a server down that ignores the end of stdin and SIGTERM (SIGKILL)', async () => {
    const { connecting, log } = spawnLiar({ STUBBORN: '1' });
    const client = await connecting;
    const started = Date.now();
    await client.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(log).toContain('ignoring SIGTERM');
    await expect(client.tools.getWeather({ location: 'x' })).rejects.toBeInstanceOf(weather.ConnectionClosedError);
  });
});

describe('against the generated weather server over Streamable HTTP', () => {
  let listener: HttpListener;
  beforeAll(async () => {
    listener = await createServer(handlers, { logger: () => {} }).listenHttp({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => listener?.close());

  it('calls tools, prompts and resources with typed, validated results', async () => {
    const client = await weather.connect({ url: listener.url });
    // The generated server speaks both eras: the newest, stateless 2026-07-28, is negotiated.
    expect(client.server.protocolVersion).toBe('2026-07-28');
    const now = await client.tools.getWeather({ location: 'Lisbon', units: 'celsius' });
    expect(typeof now.temperature).toBe('number');
    expect(['sunny', 'cloudy', 'rain', 'snow', 'fog', 'wind']).toContain(now.conditions);
    const forecast = await client.callTool('get_forecast', { location: 'Lisbon', days: 2 });
    expect(forecast.days).toHaveLength(2);
    const prompt = await client.prompts.planOuting({ location: 'Lisbon' });
    expect(prompt.messages.length).toBeGreaterThan(0);
    const stations = await client.resources.read('weather://stations');
    expect(stations.contents[0]?.uri).toBe('weather://stations');
    // The static resource, then the stations the example lists at run time.
    expect((await client.resources.list()).map((r) => r.uri)).toEqual(['weather://stations', 'weather://stations/lis', 'weather://stations/osl', 'weather://stations/sgp']);
    await client.close();
    const stateful = await weather.connect({ url: listener.url, protocolVersions: ['2025-11-25'] });
    expect(stateful.server.protocolVersion).toBe('2025-11-25');
    expect((await stateful.tools.getWeather({ location: 'Lisbon' })).location).toBe('Lisbon');
    expect(await stateful.request('ping', undefined)).toEqual({});
    await stateful.close();
  });
});

describe('introspection over stdio (mcp-gen client --from-command)', () => {
  it('passes --env to the server and splits the command line like a shell', async () => {
    const { dir, run } = await generate(['--from-command', `'${process.execPath}' "${liar}"`, '--env', 'LIST_AS=from_env', '--env', 'UNUSED=a=b']);
    expect(run.code, run.err).toBe(0);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(dir, 'client', 'client.ts'), 'utf8')).toContain('readonly fromEnv:');
  }, 60_000);

  it('reports a server that cannot be started as unreachable (exit 3), writing nothing', async () => {
    const { dir, run } = await generate(['--from-command', 'no-such-command-mcp-gen --x']);
    expect(run.code).toBe(3);
    expect(run.err).toContain('cannot connect');
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(dir, 'client'))).toBe(false);
  }, 60_000);
});
