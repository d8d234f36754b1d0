/**
 * Trying a protected server locally, as a user of the package would: the weather manifest (it has
 * `auth`) generated with the real pipeline, built with tsc, and its generated main.ts started with
 * `--auth` naming `mcp-gen dev-issuer` (the real binary, a real process). A token from the issuer
 * lists the tools over HTTP; no token gets 401. The generated main.ts answers an unknown flag with
 * one line and exit 2, and `--help` lists its flags.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, loadModel, plan, repoRoot, tempDir, write } from '../server/support.js';

const cliPath = join(repoRoot, 'bin', 'mcp-gen.js');
const WEATHER = join(repoRoot, 'examples', 'weather');
const running: ChildProcess[] = [];
const dirs: string[] = [];
let main = '';

interface IssuerReady {
  issuer: string;
  clientId: string;
  clientSecret: string;
  token: string;
}

/** Starts `mcp-gen dev-issuer --json` and resolves with its ready line. */
function startIssuer(args: string[]): Promise<IssuerReady> {
  const child = spawn(process.execPath, [cliPath, 'dev-issuer', '--port', '0', '--json', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0] as string) as IssuerReady);
    });
    child.on('exit', (code) => reject(new Error(`dev-issuer exited (${code}): ${err}`)));
  });
}

/** Starts the built main.js with `args` and resolves once it logs its URL. */
function startServer(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [main, '--http', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  running.push(child);
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const match = /listening on (http:\S+)/.exec(err);
      if (match) resolve(match[1] as string);
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${err}`)));
  });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}

/** One JSON-RPC message POSTed; the answer read from JSON or from the SSE stream. */
async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; json: any }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const data = response.headers.get('content-type')?.startsWith('text/event-stream') ? /^data: (.*)$/m.exec(text)?.[1] : text;
  return { status: response.status, headers: response.headers, json: data ? JSON.parse(data) : undefined };
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'dev-issuer-test', version: '1' } },
};

/** initialize, then tools/list in that session, with the bearer token. */
async function listTools(url: string, token: string): Promise<{ status: number; names: string[] }> {
  const auth = { authorization: `Bearer ${token}` };
  const opened = await post(url, initialize, auth);
  expect(opened.status).toBe(200);
  const session = { ...auth, 'mcp-session-id': opened.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-11-25' };
  expect((await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);
  const listed = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
  return { status: listed.status, names: ((listed.json?.result?.tools ?? []) as { name: string }[]).map((t) => t.name).sort() };
}

beforeAll(async () => {
  const dir = tempDir('dev-issuer');
  dirs.push(dir);
  const manifest = join(WEATHER, 'manifest.yaml');
  await write(dir, await plan(await loadModel(manifest)), manifest);
  cpSync(join(WEATHER, 'server', 'handlers'), join(dir, 'handlers'), { recursive: true });
  main = build(dir, join(dir, 'build'));
}, 120_000);

afterAll(() => {
  for (const child of running) child.kill();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a generated server with auth, tried with mcp-gen dev-issuer', () => {
  it('a token the issuer prints lists the tools over HTTP; no token gets 401', async () => {
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    const issuer = await startIssuer(['--resource', resource, '--scope', 'weather:read']);
    const url = await startServer(['--port', String(port), '--auth', issuer.issuer, '--resource', resource]);
    expect(url).toBe(resource);

    expect(await listTools(url, issuer.token)).toEqual({ status: 200, names: ['climate_report', 'get_forecast', 'get_weather'] });

    const anonymous = await post(url, initialize);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain(`resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`);
    const metadata = (await (await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`)).json()) as { authorization_servers: string[] };
    expect(metadata.authorization_servers).toEqual([issuer.issuer]);
  });

  it('client_credentials at the issuer gets a token for the resource it names; another audience is refused', async () => {
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    const issuer = await startIssuer([]);
    const url = await startServer(['--port', String(port), '--auth', issuer.issuer, '--resource', resource]);
    const tokenFor = async (audience: string, secret = issuer.clientSecret): Promise<Response> =>
      fetch(`${issuer.issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${issuer.clientId}:${secret}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource: audience, scope: 'weather:read' }),
      });
    const granted = (await (await tokenFor(resource)).json()) as { access_token: string; token_type: string; scope: string };
    expect(granted).toMatchObject({ token_type: 'Bearer', scope: 'weather:read' });
    expect((await listTools(url, granted.access_token)).status).toBe(200);

    // The printed token names http://127.0.0.1:3000/mcp (the default --resource), not this server.
    expect((await post(url, initialize, { authorization: `Bearer ${issuer.token}` })).status).toBe(401);
    expect((await tokenFor(resource, 'not-the-secret')).status).toBe(401);
  });

  it('answers an unknown flag with one line and exit 2, and --help lists the flags', () => {
    const unknown = spawnSync(process.execPath, [main, '--http', '--bogus'], { encoding: 'utf8' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toEqual([expect.stringContaining("Unknown option '--bogus'")]);
    expect(unknown.stderr).toContain('--help lists the flags');
    expect(unknown.stderr).not.toMatch(/^\s+at /m);

    const help = spawnSync(process.execPath, [main, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    for (const flag of ['--http', '--port <port>', '--host <host>', '--redis <url>', '--auth <issuer>', '--resource <url>', '--help']) expect(help.stdout).toContain(flag);
  });

  it('dev-issuer answers malformed token requests with OAuth errors and keeps serving', async () => {
    const issuer = await startIssuer([]);
    const basic = `Basic ${Buffer.from(`${issuer.clientId}:${issuer.clientSecret}`).toString('base64')}`;
    const token = (body: string, type = 'application/x-www-form-urlencoded'): Promise<Response> =>
      fetch(`${issuer.issuer}/token`, { method: 'POST', headers: { 'content-type': type, authorization: basic }, body });
    const errorOf = async (response: Response): Promise<[number, string]> => [response.status, ((await response.json()) as { error: string }).error];
    expect(await errorOf(await token('{"grant_type":"client_credentials"}', 'application/json'))).toEqual([400, 'invalid_request']);
    expect(await errorOf(await token('grant_type=password&username=a&password=b'))).toEqual([400, 'unsupported_grant_type']);
    expect(await errorOf(await token('grant_type=client_credentials&resource=a&resource=b'))).toEqual([400, 'invalid_target']);
    expect(await errorOf(await token(`grant_type=client_credentials&scope=${'x'.repeat(20_000)}`))).toEqual([400, 'invalid_request']);
    expect(await errorOf(await fetch(`${issuer.issuer}/authorize`))).toEqual([404, 'not_found']);
    const metadata = (await (await fetch(`${issuer.issuer}/.well-known/oauth-authorization-server`)).json()) as { issuer: string; jwks_uri: string };
    expect(metadata.issuer).toBe(issuer.issuer);
    expect(((await (await fetch(metadata.jwks_uri)).json()) as { keys: { kty: string; d?: string }[] }).keys).toEqual([expect.objectContaining({ kty: 'RSA', alg: 'RS256' })]);
    expect(((await (await fetch(metadata.jwks_uri)).json()) as { keys: { d?: string }[] }).keys[0]!.d).toBeUndefined();
    expect((await token('grant_type=client_credentials')).status).toBe(200);
  });

  it('dev-issuer refuses a bad port with exit 2', () => {
    const bad = spawnSync(process.execPath, [cliPath, 'dev-issuer', '--port', 'x'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--port');
  });
});
