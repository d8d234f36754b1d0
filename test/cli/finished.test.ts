/**
 * The command line as a user and a script meet it: each exit code (0, 1, 2, 3, and 70 for an
 * internal error) from the real binary; `--json` of every command parsed; `--quiet`; `--help`
 * with examples on every command; `--version` with the revisions; no stack trace without
 * `--debug`; piped output with no colour codes and no progress frames, a terminal (util-linux
 * `script` gives the binary a real pty) with colour, and `NO_COLOR` taking it away again.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../examples/weather/server/generated/server.js';
import { handlers } from '../../examples/weather/server/handlers/index.js';
import type { HttpListener } from '../../src/runtime/index.js';
import { KNOWN_REVISIONS } from '../../src/load/spec.js';
import { repoRoot } from '../client/support.js';
import { tempDir } from '../server/support.js';

const cliPath = join(repoRoot, 'bin', 'mcp-gen.js');
const WEATHER = join(repoRoot, 'examples', 'weather', 'manifest.yaml');
const COMMANDS = ['types', 'server', 'client', 'diff', 'check', 'docs', 'init', 'mock'];
const ESC = '\u001b[';

interface Run {
  code: number;
  out: string;
  err: string;
}

/** The binary with stdout and stderr piped (not a terminal), as a script or `> file` runs it. */
async function mcpGen(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cliPath, ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, ...env } });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, out: failed.stdout ?? '', err: failed.stderr ?? '' };
  }
}

/**
 * The binary on a pseudo-terminal (both streams), its screen as one text. Asynchronous: the weather
 * server some runs read lives in this process and must keep answering meanwhile.
 */
function onTerminal(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; screen: string }> {
  const line = [process.execPath, cliPath, ...args].map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qec', line, '/dev/null'], { cwd: repoRoot, env: { ...process.env, NO_COLOR: '', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let screen = '';
  child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, screen })));
}

const work = tempDir('cli-finished');
let listener: HttpListener;
/**
 * Nothing listens here, whatever runs beside this file: port 1 is privileged and outside the range
 * port 0 is given from. A port once free (listened on, then closed) can be taken by a parallel
 * test's server meanwhile, and the run that should be refused is answered.
 */
const closedUrl = 'http://127.0.0.1:1/mcp';
let brokenManifest: string;

beforeAll(async () => {
  listener = await createServer(handlers, { logger: () => {} }).listenHttp({ port: 0, host: '127.0.0.1' });
  brokenManifest = join(work, 'broken.yaml');
  writeFileSync(brokenManifest, 'server: { name: broken }\ntools:\n  - name: a\n    inputSchema: { type: nope }\n');
});

afterAll(async () => listener?.close());

describe('exit codes', () => {
  it('0: done', async () => {
    expect((await mcpGen(['server', WEATHER, '-o', join(work, 'ok')])).code).toBe(0);
  });

  it('1: --check finds the output out of date, and diff finds a breaking change', async () => {
    expect((await mcpGen(['server', WEATHER, '-o', join(work, 'never-made'), '--check'])).code).toBe(1);
    expect((await mcpGen(['diff', '2025-11-25', '2026-07-28'])).code).toBe(1);
  });

  it('2: bad input, every problem placed, no stack trace', async () => {
    const run = await mcpGen(['server', brokenManifest, '-o', join(work, 'broken')]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/broken\.yaml:\d+:\d+: .*\(at \/tools\/0\/inputSchema\/type\)/);
    expect(run.err).not.toMatch(/^\s+at /m);
    expect((await mcpGen(['server'])).code).toBe(2);
    expect((await mcpGen(['server', WEATHER, '--no-such-flag'])).code).toBe(2);
  });

  it('3: a server that cannot be reached, for every command that reads one', async () => {
    for (const args of [['client', '--from-url', closedUrl, '-o', join(work, 'c3')], ['docs', '--from-url', closedUrl, '-o', join(work, 'd3')], ['diff', WEATHER, closedUrl]]) {
      const run = await mcpGen(args);
      expect(run.code, args.join(' ')).toBe(3);
      expect(run.err).toContain('ECONNREFUSED');
    }
  });

  it('70: an internal error says so, with the stack only under --debug', async () => {
    // A folder where the output's ledger file should be makes the writer fail in a way no input check expects.
    const out = join(work, 'internal');
    mkdirSync(join(out, 'generated', 'types.ts'), { recursive: true });
    const plain = await mcpGen(['server', WEATHER, '-o', out]);
    expect(plain.code).toBe(70);
    expect(plain.err).toContain('internal error in mcp-gen');
    expect(plain.err).toContain('--debug');
    expect(plain.err).not.toMatch(/^\s+at /m);
    const debug = await mcpGen(['server', WEATHER, '-o', out, '--debug']);
    expect(debug.code).toBe(70);
    expect(debug.err).toMatch(/^\s+at /m);
  });
});

describe('--json', () => {
  it('prints one parseable document for every command, success or failure', async () => {
    const runs: [string, string[], number][] = [
      ['types', ['types', '--spec', '2026-07-28', '-o', join(work, 'j-types')], 0],
      ['server', ['server', WEATHER, '-o', join(work, 'j-server')], 0],
      ['client', ['client', '--from-url', listener.url, '-o', join(work, 'j-client')], 0],
      ['docs', ['docs', WEATHER, '-o', join(work, 'j-docs')], 0],
      ['check', ['check', join(work, 'j-server'), join(work, 'j-docs')], 0],
      ['diff', ['diff', WEATHER, WEATHER], 0],
      ['init', ['init', join(work, 'j-init'), '--client', '--url', listener.url], 0],
      ['server', ['server', brokenManifest, '-o', join(work, 'j-broken')], 2],
      ['client', ['client', '--from-url', closedUrl, '-o', join(work, 'j-closed')], 3],
    ];
    for (const [command, args, expected] of runs) {
      const run = await mcpGen([...args, '--json']);
      expect(run.code, `${args.join(' ')}\n${run.err}`).toBe(expected);
      let document: Record<string, unknown>;
      try {
        document = JSON.parse(run.out) as Record<string, unknown>;
      } catch (error) {
        throw new Error(`${args.join(' ')}: stdout is not one JSON document (${String(error)}):\n${run.out}\nstderr:\n${run.err}`);
      }
      if (command !== 'diff' && command !== 'check') {
        expect(document).toMatchObject({ command, exitCode: expected, ok: expected === 0 });
      } else expect(document).toBeTypeOf('object');
      if (expected === 2) expect(document['errors']).toContainEqual(expect.objectContaining({ pointer: '/tools/0/inputSchema/type', line: 4 }));
      if (command === 'server' && expected === 0) expect((document['files'] as { created: string[] }).created).toContain('generated/server.ts');
    }
  }, 240_000);

  it('mock --json prints a ready line with its URL', async () => {
    const child = execFile(process.execPath, [cliPath, 'mock', WEATHER, '--http', '--port', '0', '--json'], { cwd: repoRoot });
    // The line may come in more than one chunk: read up to its end.
    let line = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        line += chunk.toString();
        if (line.includes('\n')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`mock exited (${code}) before its ready line: ${line}`)));
    });
    child.kill('SIGTERM');
    expect(JSON.parse(line.slice(0, line.indexOf('\n')))).toMatchObject({ command: 'mock', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/) });
  }, 60_000);
});

describe('the terminal', () => {
  it('--quiet prints nothing on success, and still prints errors', async () => {
    const quiet = await mcpGen(['server', WEATHER, '-o', join(work, 'quiet'), '--quiet']);
    expect(quiet).toMatchObject({ code: 0, out: '', err: '' });
    const failing = await mcpGen(['server', brokenManifest, '-o', join(work, 'quiet-broken'), '--quiet']);
    expect(failing.err).toContain('error:');
  });

  it('piped: no colour codes and no progress frames, for any command', async () => {
    for (const args of [['server', brokenManifest, '-o', join(work, 'p1')], ['client', '--from-url', listener.url, '-o', join(work, 'p2')], ['diff', '2025-11-25', '2026-07-28'], ['check', join(work, 'p2')]]) {
      const run = await mcpGen(args);
      expect(run.out + run.err, args.join(' ')).not.toContain(ESC);
      expect(run.out + run.err, args.join(' ')).not.toContain('\r');
    }
  });

  it('on a terminal: coloured problems and a spinner while a server is read; NO_COLOR and --no-color take colour away', async () => {
    const broken = await onTerminal(['server', brokenManifest, '-o', join(work, 't1')]);
    expect(broken.code).toBe(2);
    expect(broken.screen).toContain(`${ESC}1;31merror:`);
    const reading = await onTerminal(['client', '--from-url', listener.url, '-o', join(work, 't2')]);
    expect(reading.code).toBe(0);
    expect(reading.screen).toMatch(/\r. reading http/);
    for (const env of [{ NO_COLOR: '1' }, {}]) {
      const plain = await onTerminal(['server', brokenManifest, '-o', join(work, 't3'), ...('NO_COLOR' in env ? [] : ['--no-color'])], env);
      expect(plain.code).toBe(2);
      expect(plain.screen).not.toContain(ESC);
    }
  });
});

describe('help and version', () => {
  it('--help of every command shows examples', async () => {
    for (const command of COMMANDS) {
      const run = await mcpGen([command, '--help']);
      expect(run.code, command).toBe(0);
      expect(run.out, command).toMatch(new RegExp(`Examples:\\n  \\$ mcp-gen ${command} `));
      expect(run.out, command).toContain('--json');
      expect(run.out, command).toContain('--quiet');
    }
    const top = await mcpGen(['--help']);
    expect(top.out).toContain('Exit codes: 0 done, 1');
  });

  it('--version names the supported protocol revisions', async () => {
    const run = await mcpGen(['--version']);
    expect(run.code).toBe(0);
    for (const revision of KNOWN_REVISIONS) expect(run.out).toContain(revision);
  });
});
