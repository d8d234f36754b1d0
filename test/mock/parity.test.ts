/**
 * `mcp-gen mock` answers like the generated server (issue 27, item 10): `completion/complete` from
 * the manifest's enums, compared with the generated weather server's own answers over stdio and
 * HTTP in both eras; and a manifest with `auth` is never served unprotected in silence (a warning
 * on stderr and in the `--json` ready line), or is enforced with a development token on request.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, type ConnectOptions } from '../../src/runtime/client/index.js';
import { startMock, type HttpMock } from '../../src/mock/index.js';
import { build, startHttpServer, tempDir } from '../server/support.js';
import { repoRoot } from '../client/support.js';

const WEATHER = join(repoRoot, 'examples', 'weather', 'manifest.yaml');
const BIN = join(repoRoot, 'bin', 'mcp-gen.js');
const ERAS = ['2025-11-25', '2026-07-28'] as const;

/** What is asked: every answer here comes from the manifest's enums (no handler of the example answers them). */
const QUESTIONS = [
  { ref: { type: 'ref/prompt', name: 'plan_outing' }, argument: { name: 'activity', value: '' } },
  { ref: { type: 'ref/prompt', name: 'plan_outing' }, argument: { name: 'activity', value: 'h' } },
  { ref: { type: 'ref/prompt', name: 'plan_outing' }, argument: { name: 'activity', value: 'zz' } },
  { ref: { type: 'ref/resource', uri: 'weather://stations/{id}' }, argument: { name: 'id', value: 'o' } },
  { ref: { type: 'ref/resource', uri: 'weather://stations/{id}' }, argument: { name: 'id', value: '' } },
  { ref: { type: 'ref/prompt', name: 'no_such_prompt' }, argument: { name: 'activity', value: '' } },
];

async function answers(location: ConnectOptions, era: string): Promise<unknown[]> {
  const session = await openSession({ ...location, protocolVersions: [era] });
  try {
    expect(session.server.protocolVersion).toBe(era);
    const out: unknown[] = [];
    for (const params of QUESTIONS) out.push(await session.request('completion/complete', params));
    return out;
  } finally {
    await session.close();
  }
}

describe('mcp-gen mock completes as the generated server does', () => {
  const work = tempDir('mock-parity');
  const running: ChildProcess[] = [];
  let main = '';
  let generatedUrl = '';
  let mock: HttpMock;
  let mockStdio: { command: string; args: string[] };
  beforeAll(async () => {
    main = build(join(repoRoot, 'examples', 'weather', 'server'), join(work, 'build'));
    generatedUrl = (await startHttpServer(main, running)).href;
    mock = await startMock({ manifest: WEATHER, transport: 'http' });
    mockStdio = await startMock({ manifest: WEATHER, transport: 'stdio' });
  }, 300_000);
  afterAll(async () => {
    for (const child of running) child.kill();
    await mock?.close();
    rmSync(work, { recursive: true, force: true });
  });

  for (const era of ERAS) {
    for (const transport of ['stdio', 'http'] as const) {
      it(`${transport}, ${era}: the same completions, the manifest's enum values`, async () => {
        const generated = await answers(transport === 'http' ? { url: generatedUrl } : { command: process.execPath, args: [main], stderr: 'ignore' }, era);
        const mocked = await answers(transport === 'http' ? { url: mock.url } : { ...mockStdio, stderr: 'ignore' }, era);
        // Not vacuous: the generated server answers the enums (the mock used to answer []).
        expect(generated[0]).toMatchObject({ completion: { values: ['hiking', 'cycling', 'picnic', 'sailing'] } });
        expect(generated[1]).toMatchObject({ completion: { values: ['hiking'] } });
        expect(generated[3]).toMatchObject({ completion: { values: ['osl'] } });
        expect(mocked).toEqual(generated);
      }, 60_000);
    }
  }
});

/** Runs `mcp-gen mock … --http --port 0 --json` until its ready line; the child is left running. */
async function startCliMock(args: string[], running: ChildProcess[]): Promise<{ ready: Record<string, unknown>; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, 'mock', WEATHER, '--http', '--port', '0', '--json', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const line = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0] as string);
    });
    child.on('exit', (code) => reject(new Error(`mock exited (${code}): ${stderr}`)));
  });
  return { ready: JSON.parse(line) as Record<string, unknown>, stderr: () => stderr };
}

describe("mcp-gen mock and the manifest's auth section", () => {
  const running: ChildProcess[] = [];
  afterAll(() => {
    for (const child of running) child.kill();
  });

  it('by default: serves without a token, and says so on stderr and in the --json ready line', async () => {
    const { ready, stderr } = await startCliMock([], running);
    expect(ready).toMatchObject({ command: 'mock', auth: { enforced: false } });
    expect(stderr()).toContain('warning: auth NOT enforced');
    expect(stderr()).toContain('scopes weather:read weather:reports');
    expect(stderr()).toContain('--enforce-auth');
    const session = await openSession({ url: ready['url'] as string });
    await expect(session.request('tools/call', { name: 'get_weather', arguments: { location: 'Oslo' } })).resolves.toMatchObject({ structuredContent: { location: expect.any(String) } });
    await session.close();
  }, 60_000);

  it('--enforce-auth: 401 without the token, served with the development token printed at start', async () => {
    const { ready, stderr } = await startCliMock(['--enforce-auth'], running);
    const auth = ready['auth'] as { enforced: boolean; token: string; scopes: string[] };
    expect(auth).toMatchObject({ enforced: true, scopes: ['weather:read', 'weather:reports'] });
    expect(auth.token).toMatch(/^mcp-gen-mock-/);
    expect(stderr()).toContain(`Authorization: Bearer ${auth.token}`);
    const url = ready['url'] as string;
    const bare = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toContain('resource_metadata=');
    const metadata = (await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url))).json()) as { resource: string };
    expect(metadata.resource).toBe(url);
    await expect(openSession({ url, headers: { authorization: 'Bearer wrong' } })).rejects.toThrow();
    for (const era of ERAS) {
      const session = await openSession({ url, headers: { authorization: `Bearer ${auth.token}` }, protocolVersions: [era] });
      await expect(session.request('tools/call', { name: 'climate_report', arguments: { location: 'Oslo' } })).resolves.toMatchObject({ structuredContent: { location: expect.any(String) } });
      await session.close();
    }
  }, 60_000);

  it('startMock: says whether auth is enforced, and gives the token when it is', async () => {
    const open = await startMock({ manifest: WEATHER, transport: 'http' });
    const closed = await startMock({ manifest: WEATHER, transport: 'http', enforceAuth: true });
    try {
      expect(open.auth).toEqual({ enforced: false });
      expect(closed.auth).toMatchObject({ enforced: true, token: expect.stringMatching(/^mcp-gen-mock-/) });
      const token = closed.auth?.enforced === true ? closed.auth.token : '';
      expect((await fetch(closed.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' })).status).toBe(401);
      const session = await openSession({ url: closed.url, headers: { authorization: `Bearer ${token}` } });
      await expect(session.request('tools/call', { name: 'get_weather', arguments: { location: 'Oslo' } })).resolves.toMatchObject({ structuredContent: { location: expect.any(String) } });
      await session.close();
    } finally {
      await open.close();
      await closed.close();
    }
  }, 60_000);

  it('--enforce-auth without --http, or for a server without auth: bad input, exit 2', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'mock', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
        child.on('close', (code) => resolve({ code, err }));
      });
    const stdio = await run([WEATHER, '--enforce-auth']);
    expect(stdio.code).toBe(2);
    expect(stdio.err).toContain('--enforce-auth');
    const noAuth = await run([join(repoRoot, 'test', 'fixtures', 'matrix', 'names.yaml'), '--http', '--port', '0', '--enforce-auth']);
    expect(noAuth.code).toBe(2);
    expect(noAuth.err).toContain('no `auth` section');
  }, 60_000);
});
