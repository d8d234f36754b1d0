/**
 * `mcp-gen client --from-url` against a protected server (./fixture.ts): piped without a credential
 * it fails saying what to give; with `--header` it reads the server and keeps the token out of
 * everything it writes; on a terminal it prints the authorization URL and takes the redirect on a
 * loopback listener, and the client it writes can sign in (as with `--auth`).
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support.js';
import { tempDir } from '../../server/support.js';
import { AuthFixture } from './fixture.js';

const cliPath = join(repoRoot, 'bin', 'mcp-gen.js');
let f: AuthFixture;
let work: string;

beforeAll(async () => {
  f = await new AuthFixture().start();
  work = tempDir('mcp-gen-auth-from-url-');
});
afterAll(() => f.stop());

async function mcpGen(args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cliPath, ...args], { cwd: repoRoot, encoding: 'utf8' });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, out: failed.stdout ?? '', err: failed.stderr ?? '' };
  }
}

/** Every file under `dir`, as text. */
function everything(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}

describe('mcp-gen client --from-url, protected server', () => {
  it('piped, without a credential: exit 3, saying the server needs authorization and what to give', async () => {
    const run = await mcpGen(['client', '--from-url', f.url, '-o', join(work, 'none')]);
    expect(run.code).toBe(3);
    expect(run.err).toContain('needs authorization (401)');
    expect(run.err).toContain("--header 'Authorization: Bearer <token>'");
  });

  it('--header Authorization: reads the server; the token is nowhere in the output', async () => {
    f.acceptToken('secret-token-123');
    const out = join(work, 'header');
    const run = await mcpGen(['client', '--from-url', f.url, '--header', 'Authorization: Bearer secret-token-123', '-o', out, '--save-snapshot', join(work, 'snap.json')]);
    expect(run.code, run.err).toBe(0);
    expect(everything(out)).not.toContain('secret-token-123');
    expect(readFileSync(join(work, 'snap.json'), 'utf8')).not.toContain('secret-token-123');
    // The server did not refuse: no OAuth module, no dependency.
    expect(existsSync(join(out, 'runtime', 'client', 'auth'))).toBe(false);
    expect(existsSync(join(out, 'package.json'))).toBe(false);
  });

  it('--auth adds runtime/client/auth/ and a package.json naming oauth4webapi', async () => {
    f.acceptToken('t2');
    const out = join(work, 'auth');
    const run = await mcpGen(['client', '--from-url', f.url, '--header', 'Authorization: Bearer t2', '--auth', '-o', out]);
    expect(run.code, run.err).toBe(0);
    expect(readdirSync(join(out, 'runtime', 'client', 'auth'))).toContain('oauth.ts');
    expect(JSON.parse(readFileSync(join(out, 'package.json'), 'utf8'))).toMatchObject({ dependencies: { oauth4webapi: '3.8.8' } });
    expect(JSON.parse(readFileSync(join(out, '.mcp-gen-ledger.json'), 'utf8')).recipe.options).toMatchObject({ auth: true });
    expect((await mcpGen(['check', out])).code).toBe(0);
  });

  it('on a terminal: prints the authorization URL, takes the redirect on 127.0.0.1, and the client gets the OAuth module', async () => {
    const out = join(work, 'terminal');
    const line = [process.execPath, cliPath, 'client', '--from-url', f.url, '-o', out].map((w) => `'${w}'`).join(' ');
    const child = spawn('script', ['-qec', line, '/dev/null'], { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'inherit'] });
    let screen = '';
    let followed = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      screen += chunk;
      const url = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(screen)?.[1];
      if (url !== undefined && !followed) {
        followed = true;
        void fetch(url); // the browser: the authorization server redirects it to the loopback listener
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, screen).toBe(0);
    expect(screen).toContain('Open this URL in a browser');
    expect(screen).toContain('the server asked for authorization (401)');
    expect(readdirSync(join(out, 'runtime', 'client', 'auth'))).toContain('oauth.ts');
    expect(f.to('/token').length).toBeGreaterThan(0);
    const issued = f.requests.filter((r) => r.path === '/mcp' && r.headers.authorization?.startsWith('Bearer at-')).map((r) => r.headers.authorization?.slice(7) as string);
    expect(issued.length).toBeGreaterThan(0);
    for (const token of issued) expect(everything(out)).not.toContain(token);
  }, 60_000);
});
