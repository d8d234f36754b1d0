/**
 * Against software nobody here wrote: clients generated from @modelcontextprotocol/server-everything
 * (stdio with --from-command, Streamable HTTP with --from-url) and from a server written with the
 * official SDK 1.x compile under the strict settings, and every tool that needs no network is
 * called successfully through them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeDiagnostics } from '../types/helpers.js';
import { checkWith, everythingBin, generate, importClient, repoRoot } from './support.js';

/** Calls every tool of server-everything except simulate-research-query, which only runs as a task (an extension this client does not speak). */
const everythingUsage = `import { expectTypeOf } from 'vitest';
import type { Client } from './client/client.js';

export async function callAll(client: Client): Promise<Record<string, unknown>> {
  const progress: number[] = [];
  const weather = await client.tools.getStructuredContent({ location: 'Chicago' });
  expectTypeOf(weather.temperature).toEqualTypeOf<number>();
  const results: Record<string, unknown> = {
    echo: await client.tools.echo({ message: 'hi' }),
    getAnnotatedMessage: await client.tools.getAnnotatedMessage({ messageType: 'success', includeImage: true }),
    getEnv: await client.tools.getEnv({}),
    getResourceLinks: await client.tools.getResourceLinks({ count: 2 }),
    getResourceReference: await client.tools.getResourceReference({ resourceType: 'Text', resourceId: 2 }),
    getStructuredContent: weather,
    getSum: await client.tools.getSum({ a: 2, b: 3 }),
    getTinyImage: await client.tools.getTinyImage({}),
    gzipFileAsResource: await client.tools.gzipFileAsResource({ name: 'x.gz', data: 'data:text/plain;base64,aGVsbG8=', outputType: 'resource' }),
    toggleSimulatedLogging: await client.tools.toggleSimulatedLogging({}),
    toggleSubscriberUpdates: await client.tools.toggleSubscriberUpdates({}),
    triggerLongRunningOperation: await client.tools.triggerLongRunningOperation(
      { duration: 0.2, steps: 2 },
      { onProgress: (p) => progress.push(p.progress), timeoutMs: 10_000 },
    ),
  };
  results['progress'] = progress;
  // @ts-expect-error a and b are numbers
  if (false as boolean) await client.tools.getSum({ a: '1', b: 2 });
  return results;
}
`;

type Everything = { connect(options: object): Promise<{ close(): Promise<void>; server: { protocolVersion: string } }> };
type Usage = { callAll(client: unknown): Promise<Record<string, any>> };

function expectEveryCall(results: Record<string, any>): void {
  expect(results['echo'].content[0].text).toBe('Echo: hi');
  expect(results['getSum'].content[0].text).toContain('5');
  expect(results['getStructuredContent']).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) });
  expect(results['getTinyImage'].content.some((c: { type: string }) => c.type === 'image')).toBe(true);
  expect(results['gzipFileAsResource'].content.some((c: { type: string }) => c.type === 'resource')).toBe(true);
  expect(results['getResourceLinks'].content.filter((c: { type: string }) => c.type === 'resource_link')).toHaveLength(2);
  expect(results['progress'].length).toBeGreaterThan(0);
  for (const name of ['getAnnotatedMessage', 'getEnv', 'getResourceReference', 'toggleSimulatedLogging', 'toggleSubscriberUpdates', 'triggerLongRunningOperation']) {
    expect(Array.isArray(results[name].content), name).toBe(true);
  }
}

async function run(dir: string, location: object): Promise<Record<string, any>> {
  const module = await importClient<Everything>(dir);
  const usage = (await import(join(dir, 'usage.ts'))) as Usage;
  const client = await module.connect({ ...location, onNotification: () => {} });
  try {
    return await usage.callAll(client);
  } finally {
    await client.close();
  }
}

describe('server-everything over stdio (--from-command)', () => {
  it('generates a strictly compiling client and calls every tool that needs no network', async () => {
    const { dir, run: cli } = await generate(['--from-command', `${process.execPath} ${everythingBin} stdio`]);
    expect(cli.code, cli.err).toBe(0);
    expect(describeDiagnostics(checkWith(dir, { 'usage.ts': everythingUsage }))).toBe('');
    expectEveryCall(await run(dir, { command: process.execPath, args: [everythingBin, 'stdio'], stderr: 'ignore' }));
  }, 120_000);
});

describe('server-everything over Streamable HTTP (--from-url)', () => {
  let child: ChildProcess | undefined;
  let url = '';
  beforeAll(async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    child = spawn(process.execPath, [join(repoRoot, 'test/client/fixtures/everything-http.mjs')], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      let log = '';
      child!.stderr!.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('listening on port')) resolve();
      });
      child!.once('exit', () => reject(new Error(`server-everything exited:\n${log}`)));
    });
    url = `http://127.0.0.1:${port}/mcp`;
  }, 30_000);
  afterAll(() => {
    child?.kill();
  });

  it('generates a strictly compiling client and calls every tool that needs no network', async () => {
    const { dir, run: cli } = await generate(['--from-url', url]);
    expect(cli.code, cli.err).toBe(0);
    expect(describeDiagnostics(checkWith(dir, { 'usage.ts': everythingUsage }))).toBe('');
    expectEveryCall(await run(dir, { url }));
  }, 120_000);
});

describe('a server written with the official SDK 1.x', () => {
  it('returns typed, validated outputs', async () => {
    const server = join(repoRoot, 'test/client/fixtures/sdk-server.mjs');
    const { dir, run: cli } = await generate(['--from-command', `${process.execPath} ${server}`]);
    expect(cli.code, cli.err).toBe(0);
    const usage = `import { expectTypeOf } from 'vitest';
import type { Client } from './client/client.js';
import type * as P from './client/protocol.js';
export async function callAll(client: Client) {
  const book = await client.tools.lookupBook({ isbn: '0123456789', withAuthors: true });
  expectTypeOf(book.format).toEqualTypeOf<'paperback' | 'hardcover' | 'ebook'>();
  expectTypeOf(book.authors[0]!.born).toEqualTypeOf<number | null>();
  const sum = await client.tools.add({ a: 1, b: 2 });
  expectTypeOf(sum).toEqualTypeOf<{ sum: number }>();
  const shout = await client.tools.shout({ text: 'hey' });
  expectTypeOf(shout).toEqualTypeOf<P.CallToolResult>();
  const prompt = await client.prompts.review({ title: 'Dune' });
  // @ts-expect-error isbn is required
  if (false as boolean) await client.tools.lookupBook({});
  return { book, sum, shout, prompt };
}
`;
    expect(describeDiagnostics(checkWith(dir, { 'usage.ts': usage }))).toBe('');
    const results = await run(dir, { command: process.execPath, args: [server], stderr: 'ignore' });
    expect(results['book']).toEqual({
      title: 'Book 0123456789',
      year: 1999,
      format: 'ebook',
      authors: [{ name: 'Ann', born: 1970 }, { name: 'Bo', born: null }],
    });
    expect(results['sum']).toEqual({ sum: 3 });
    expect(results['shout'].content[0].text).toBe('HEY');
    expect(results['prompt'].messages[0].content.text).toBe('Review Dune');
  }, 120_000);
});

describe('an @modelcontextprotocol/server 2.x endpoint serving both eras', () => {
  let child: ChildProcess | undefined;
  let url = '';
  beforeAll(async () => {
    child = spawn(process.execPath, [join(repoRoot, 'test/client/fixtures/sdk2-server.mjs')], { stdio: ['ignore', 'ignore', 'pipe'] });
    url = await new Promise<string>((resolve, reject) => {
      let log = '';
      child!.stderr!.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        const match = /listening on (\S+)/.exec(log);
        if (match) resolve(match[1]!);
      });
      child!.once('exit', () => reject(new Error(`the SDK 2.x server exited:\n${log}`)));
    });
  }, 30_000);
  afterAll(() => {
    child?.kill();
  });

  it('generates over 2026-07-28 and calls with typed, validated outputs in both eras', async () => {
    const { dir, run: cli } = await generate(['--from-url', url]);
    expect(cli.code, cli.err).toBe(0);
    expect(cli.err).toContain('speaks 2026-07-28');
    const usage = `import { expectTypeOf } from 'vitest';
import type { Client } from './client/client.js';
import type * as P from './client/protocol.js';
export async function callAll(client: Client) {
  const converted = await client.tools.convert({ value: 100, to: 'fahrenheit' });
  expectTypeOf(converted.unit).toEqualTypeOf<'celsius' | 'fahrenheit'>();
  expectTypeOf(converted.steps).toEqualTypeOf<string[]>();
  const greeting = await client.tools.greet({ name: 'Ann' });
  expectTypeOf(greeting).toEqualTypeOf<P.CallToolResult>();
  // @ts-expect-error to is an enum
  if (false as boolean) await client.tools.convert({ value: 1, to: 'kelvin' });
  return { converted, greeting, version: client.server.protocolVersion };
}
`;
    expect(describeDiagnostics(checkWith(dir, { 'usage.ts': usage }))).toBe('');
    const modern = await run(dir, { url });
    expect(modern['version']).toBe('2026-07-28');
    expect(modern['converted']).toEqual({ value: 212, unit: 'fahrenheit', steps: ['read', 'convert'] });
    expect(modern['greeting'].content[0].text).toBe('Hello, Ann');
    const legacy = await run(dir, { url, protocolVersions: ['2025-11-25'] });
    expect(legacy['version']).toBe('2025-11-25');
    expect(legacy['converted']).toEqual(modern['converted']);
  }, 120_000);
});
