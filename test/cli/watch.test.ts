import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, realpath, rename, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { InputError } from '../../src/load/diagnostics.js';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { watchAndRegenerate } from '../../src/cli/watch.js';
import type { Console } from '../../src/cli/output.js';
import { shippedSchema, withConstraints } from '../types/spec-variants.js';

const repoRoot = resolve(fileURLToPath(new URL('../../', import.meta.url)));
const BIN = join(repoRoot, 'bin', 'mcp-gen.js');
/** A generous bound for one regeneration on a busy 2-core machine; polls end as soon as they can. */
const RUN_TIMEOUT_MS = 60_000;

/** `mcp-gen … --watch` as a child process, with every line it printed so far. */
class WatchProcess {
  readonly out: string[] = [];
  readonly err: string[] = [];
  private readonly child: ChildProcess;
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(cwd: string, args: string[]) {
    this.child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const collect = (stream: NodeJS.ReadableStream, lines: string[]): void => {
      let partial = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const parts = (partial + chunk).split('\n');
        partial = parts.pop() ?? '';
        lines.push(...parts);
      });
    };
    collect(this.child.stdout!, this.out);
    collect(this.child.stderr!, this.err);
    this.exited = new Promise((done) => this.child.on('exit', (code, signal) => done({ code, signal })));
  }

  /** Polls `ready` every 50 ms until it holds; fails after RUN_TIMEOUT_MS with what was printed. */
  async waitFor(what: string, ready: () => boolean | Promise<boolean>): Promise<void> {
    const deadline = Date.now() + RUN_TIMEOUT_MS;
    while (!(await ready())) {
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${what}\nstdout:\n${this.out.join('\n')}\nstderr:\n${this.err.join('\n')}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Waits until stderr, from line `mark` on, holds `line`: stdout and stderr are separate pipes, read in no fixed order. */
  async waitForErr(line: string, mark = 0): Promise<void> {
    await this.waitFor(`stderr line '${line}'`, () => this.err.slice(mark).includes(line));
  }

  /** Waits for the report line of the next run after `mark` lines of stdout; returns it. */
  async nextReport(mark: number): Promise<string> {
    await this.waitFor(`report line ${mark + 1}`, () => this.out.length > mark);
    return this.out[mark]!;
  }

  async stop(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.kill(signal);
    return this.exited;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

const started: WatchProcess[] = [];
function startWatch(cwd: string, args: string[]): WatchProcess {
  const watcher = new WatchProcess(cwd, args);
  started.push(watcher);
  return watcher;
}
afterEach(() => {
  for (const watcher of started.splice(0)) watcher.kill();
});

beforeAll(() => {
  if (!existsSync(join(repoRoot, 'dist', 'cli', 'main.js'))) throw new Error('bin/mcp-gen.js runs dist/: run `npm run build` first');
});

/** Every file under `dir` (the ledger and generated code included), for byte comparison. */
async function contents(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of (await readdir(dir, { recursive: true })).sort()) {
    const path = join(dir, name);
    if ((await stat(path)).isFile()) files[name] = await readFile(path, 'utf8');
  }
  return files;
}

/** A manifest whose tools are given as `name: inputSchema YAML` pairs. */
function manifest(tools: Record<string, string>): string {
  const entries = Object.entries(tools).map(([name, schema]) => `  - name: ${name}\n    description: The ${name} tool.\n    inputSchema: ${schema}\n`);
  return `server:\n  name: watched\n  version: 1.0.0\ntools:\n${entries.join('')}`;
}
const OBJECT = '{ type: object }';
const schemaWith = (property: string): string => JSON.stringify({ type: 'object', properties: { [property]: { type: 'string' } } });

describe('loadManifest inputFiles: what --watch watches', () => {
  it('lists the manifest and every $ref file inside the sandbox, a missing one too, also when loading fails', async () => {
    // Resolved, so the symlink-resolved path of each file (also listed) is the same path.
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-gen-watch-')));
    await mkdir(join(dir, 'schemas'));
    await writeFile(join(dir, 'schemas', 'a.json'), JSON.stringify({ type: 'object', properties: { b: { $ref: './b.json' } } }));
    await writeFile(join(dir, 'schemas', 'b.json'), JSON.stringify({ type: 'string' }));
    await writeFile(join(dir, 'manifest.yaml'), manifest({ one: '{ $ref: ./schemas/a.json }', two: '{ $ref: ./schemas/missing.json }', three: '{ $ref: ../outside.json }' }));
    const inputFiles = new Set<string>();
    await expect(loadManifest(join(dir, 'manifest.yaml'), { inputFiles })).rejects.toBeInstanceOf(InputError);
    // The file outside the folder is refused before it is read, so it is not an input.
    expect([...inputFiles].sort()).toEqual([join(dir, 'manifest.yaml'), join(dir, 'schemas', 'a.json'), join(dir, 'schemas', 'b.json'), join(dir, 'schemas', 'missing.json')]);
  });
});

describe('watchAndRegenerate', () => {
  it('runs again when a file first read by a run changed before its watch was armed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-watch-'));
    const file = join(dir, 'input.json');
    await writeFile(file, '1');
    const stop = new AbortController();
    let runs = 0;
    const io: Console = { out: () => undefined, err: () => undefined };
    const watching = watchAndRegenerate(
      async (_io, inputs) => {
        runs += 1;
        inputs.add(file);
        // Changed after being read, while no watch covers it yet.
        if (runs === 1) await writeFile(file, '2');
      },
      io,
      { signal: stop.signal, debounceMs: 20 },
    );
    const deadline = Date.now() + 10_000;
    while (runs < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    expect(await watching).toBe(0);
    expect(runs).toBe(2);
  });
});

describe('mcp-gen server --watch', () => {
  it('follows edits of the manifest and its $ref files, keeps the last good output on errors, and exits 0 on SIGINT', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-watch-'));
    await mkdir(join(dir, 'schemas'));
    const manifestPath = join(dir, 'manifest.yaml');
    await writeFile(join(dir, 'schemas', 'echo.json'), schemaWith('text'));
    await writeFile(manifestPath, manifest({ echo: '{ $ref: ./schemas/echo.json }' }));
    const types = (): Promise<string> => readFile(join(dir, 'out', 'generated', 'types.ts'), 'utf8');

    const watcher = startWatch(dir, ['server', 'manifest.yaml', '-o', 'out', '--watch', '--no-version-banner']);
    expect(await watcher.nextReport(0)).toMatch(/^out: \d+ created\.$/);
    await watcher.waitForErr('watching 2 files for changes; Ctrl-C stops.');
    expect(await types()).toMatch(/\btext\??: string/);

    // The manifest gains a tool: so does the output.
    let mark = watcher.out.length;
    await writeFile(manifestPath, manifest({ echo: '{ $ref: ./schemas/echo.json }', ping: OBJECT }));
    expect(await watcher.nextReport(mark)).toMatch(/^out: .*\d+ created/);
    expect(existsSync(join(dir, 'out', 'handlers', 'tools', 'ping.ts'))).toBe(true);

    // The $ref'ed file changes: the types follow.
    mark = watcher.out.length;
    await writeFile(join(dir, 'schemas', 'echo.json'), schemaWith('loudness'));
    expect(await watcher.nextReport(mark)).toMatch(/^out: \d+ updated/);
    expect(await types()).toMatch(/\bloudness\??: string/);

    // A broken manifest: diagnostics in the usual format, and not one byte of the output changes.
    const before = await contents(join(dir, 'out'));
    let errMark = watcher.err.length;
    await writeFile(manifestPath, manifest({ echo: '{ $ref: ./schemas/echo.json }', ping: '{ type: string }' }));
    await watcher.waitFor('the problem summary', () => watcher.err.slice(errMark).some((l) => /^1 problem found; the output was left as it was/.test(l)));
    expect(watcher.err.slice(errMark)).toContainEqual(expect.stringMatching(/^error: manifest\.yaml:\d+:\d+: .* \(at \/tools\/1\/inputSchema\/type\) — /));
    expect(await contents(join(dir, 'out'))).toEqual(before);

    // Fixed (with one more tool): regenerated.
    mark = watcher.out.length;
    await writeFile(manifestPath, manifest({ echo: '{ $ref: ./schemas/echo.json }', ping: OBJECT, shout: OBJECT }));
    expect(await watcher.nextReport(mark)).toMatch(/^out: .*\d+ created/);
    expect(existsSync(join(dir, 'out', 'handlers', 'tools', 'shout.ts'))).toBe(true);

    // A newly $ref'ed file is watched from the run that first reads it.
    await writeFile(join(dir, 'schemas', 'shout.json'), schemaWith('volume'));
    mark = watcher.out.length;
    errMark = watcher.err.length;
    await writeFile(manifestPath, manifest({ echo: '{ $ref: ./schemas/echo.json }', ping: OBJECT, shout: '{ $ref: ./schemas/shout.json }' }));
    await watcher.nextReport(mark);
    await watcher.waitForErr('now watching schemas/shout.json', errMark);
    expect(await types()).toMatch(/\bvolume\??: string/);
    mark = watcher.out.length;
    await writeFile(join(dir, 'schemas', 'shout.json'), schemaWith('pitch'));
    await watcher.nextReport(mark);
    expect(await types()).toMatch(/\bpitch\??: string/);

    // No longer referenced: dropped, although its folder is still watched for echo.json.
    mark = watcher.out.length;
    errMark = watcher.err.length;
    await writeFile(manifestPath, manifest({ echo: '{ $ref: ./schemas/echo.json }', ping: OBJECT, shout: OBJECT }));
    await watcher.nextReport(mark);
    await watcher.waitForErr('no longer watching schemas/shout.json', errMark);
    mark = watcher.out.length;
    await writeFile(join(dir, 'schemas', 'shout.json'), schemaWith('ignored'));
    // Several debounce periods for a run that must not come, then a change that must: exactly one report.
    await new Promise((r) => setTimeout(r, 1000));
    await writeFile(join(dir, 'schemas', 'echo.json'), schemaWith('text'));
    await watcher.nextReport(mark);
    expect(await types()).toMatch(/\btext\??: string/);
    expect(watcher.out.length).toBe(mark + 1);

    const exit = await watcher.stop('SIGINT');
    expect(exit).toEqual({ code: 0, signal: null });
    expect(watcher.err.join('\n')).not.toMatch(/Error|internal error|^\s+at /m);
  }, 300_000);

  it('sees an editor save that writes a temporary file and renames it over the original', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-watch-'));
    const manifestPath = join(dir, 'manifest.yaml');
    await writeFile(manifestPath, manifest({ echo: OBJECT }));
    const watcher = startWatch(dir, ['server', 'manifest.yaml', '-o', 'out', '--watch', '--no-version-banner']);
    await watcher.nextReport(0);
    for (const tool of ['first', 'second']) {
      // Twice: a watch on the file itself would stay on the old inode after the first rename.
      const mark = watcher.out.length;
      await writeFile(`${manifestPath}.tmp`, manifest({ echo: OBJECT, [tool]: OBJECT }));
      await rename(`${manifestPath}.tmp`, manifestPath);
      await watcher.nextReport(mark);
      expect(existsSync(join(dir, 'out', 'handlers', 'tools', `${tool}.ts`))).toBe(true);
    }
    expect(await watcher.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  }, 180_000);
});

describe('mcp-gen server --watch: missing inputs', () => {
  it('starts on a $ref to a file in a folder that does not exist yet, and generates once both are created', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-watch-'));
    await writeFile(join(dir, 'manifest.yaml'), manifest({ later: '{ $ref: ./schemas/later.json }' }));
    const watcher = startWatch(dir, ['server', 'manifest.yaml', '-o', 'out', '--watch', '--no-version-banner']);
    await watcher.waitFor('the problem summary', () => watcher.err.some((l) => /^1 problem found; the output was left as it was/.test(l)));
    expect(watcher.err[0]).toMatch(/^error: manifest\.yaml:\d+:\d+: \$ref '\.\/schemas\/later\.json' points to a file that does not exist \(at \/tools\/0\/inputSchema\/\$ref\)$/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    await mkdir(join(dir, 'schemas'));
    await writeFile(join(dir, 'schemas', 'later.json'), schemaWith('arrived'));
    await watcher.waitFor('a generated types.ts', () => existsSync(join(dir, 'out', 'generated', 'types.ts')));
    await watcher.nextReport(0);
    expect(await readFile(join(dir, 'out', 'generated', 'types.ts'), 'utf8')).toMatch(/\barrived\??: string/);
    expect(await watcher.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  }, 180_000);
});

describe('mcp-gen client and types --watch', () => {
  it('client --watch regenerates from the --from-snapshot file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-watch-'));
    const snapshot = (tool: string): string =>
      JSON.stringify({
        mcpGenSnapshot: 1,
        protocolVersion: '2025-11-25',
        serverInfo: { name: 's', version: '1.0.0' },
        capabilities: { tools: {} },
        tools: [{ name: tool, inputSchema: { type: 'object' } }],
        prompts: [],
        resources: [],
        resourceTemplates: [],
      });
    await writeFile(join(dir, 'server.json'), snapshot('alpha'));
    const watcher = startWatch(dir, ['client', '--from-snapshot', 'server.json', '-o', 'out', '--watch', '--no-version-banner']);
    await watcher.nextReport(0);
    expect(await readFile(join(dir, 'out', 'client.ts'), 'utf8')).toContain('alpha');
    const mark = watcher.out.length;
    await writeFile(join(dir, 'server.json'), snapshot('beta'));
    expect(await watcher.nextReport(mark)).toMatch(/^out: \d+ updated/);
    expect(await readFile(join(dir, 'out', 'client.ts'), 'utf8')).toContain('beta');
    expect(await watcher.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  }, 180_000);

  it('types --watch regenerates when the --spec file changes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-watch-'));
    await mkdir(join(dir, '2024-11-05'));
    const specPath = join(dir, '2024-11-05', 'schema.json');
    await copyFile(join(repoRoot, 'schema', 'mcp-spec', '2024-11-05', 'schema.json'), specPath);
    const watcher = startWatch(dir, ['types', '--spec', '2024-11-05/schema.json', '-o', 'out', '--watch', '--no-version-banner']);
    await watcher.nextReport(0);
    const spec = JSON.parse(await readFile(specPath, 'utf8')) as { definitions: Record<string, { description?: string }> };
    spec.definitions['Implementation']!.description = 'Watched description marker.';
    const mark = watcher.out.length;
    await writeFile(specPath, JSON.stringify(spec));
    await watcher.nextReport(mark);
    expect(await readFile(join(dir, 'out', 'types.ts'), 'utf8')).toContain('Watched description marker.');
    expect(await watcher.stop('SIGINT')).toEqual({ code: 0, signal: null });
  }, 180_000);

  it('server --watch regenerates when the --spec file changes, and waits out a broken one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-watch-'));
    await copyFile(join(repoRoot, 'test', 'fixtures', 'server', 'no-output', 'manifest.yaml'), join(dir, 'manifest.yaml'));
    const specPath = join(dir, '2025-11-25', 'schema.json');
    await mkdir(join(dir, '2025-11-25'));
    await writeFile(specPath, JSON.stringify(withConstraints(shippedSchema('2025-11-25'), 64)));
    const watcher = startWatch(dir, ['server', 'manifest.yaml', '-o', 'out', '--spec', '2025-11-25/schema.json', '--watch', '--no-version-banner']);
    await watcher.nextReport(0);
    const validators = join(dir, 'out', 'generated', 'runtime', 'initialize-validators.ts');
    expect(await readFile(validators, 'utf8')).toContain('> 64');
    let mark = watcher.err.length;
    await writeFile(specPath, '{ "broken": ');
    await watcher.waitFor('the broken spec reported', () => watcher.err.slice(mark).some((line) => line.includes('Waiting for changes')));
    mark = watcher.out.length;
    await writeFile(specPath, JSON.stringify(withConstraints(shippedSchema('2025-11-25'), 32)));
    expect(await watcher.nextReport(mark)).toMatch(/^out: \d+ updated/);
    expect(await readFile(validators, 'utf8')).toContain('> 32');
    expect(await watcher.stop('SIGINT')).toEqual({ code: 0, signal: null });
  }, 180_000);
});

describe('--watch usage errors (exit 2, nothing started)', () => {
  async function run(...argv: string[]): Promise<{ code: number; err: string[] }> {
    const err: string[] = [];
    const io: Console = { out: () => undefined, err: (l) => err.push(l) };
    return { code: await main(argv, io), err };
  }

  it.each([
    ['client --from-url', ['client', '--from-url', 'http://127.0.0.1:9/mcp', '--watch'], /--watch does not go with --from-url — save a snapshot/],
    ['client --from-command', ['client', '--from-command', 'node server.js', '--watch'], /--watch does not go with --from-command/],
    ['client without a source', ['client', '--watch'], /give exactly one of/],
    ['types with a revision name', ['types', '--spec', '2025-11-25', '--watch'], /--watch does not go with --spec 2025-11-25 — give --spec the path/],
    ['server --check', ['server', 'manifest.yaml', '--check', '--watch'], /--watch does not go with --check/],
    ['server --force', ['server', 'manifest.yaml', '--force', '--watch'], /--watch does not go with --force — run once with --force/],
  ])('%s', async (_what, argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.err[0]).toMatch(message);
  });
});
