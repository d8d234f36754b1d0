/**
 * `mcp-gen server` run again with nothing changed answers from the folder's no-op stamp
 * (src/pipeline/noop-stamp.ts): the same report as a full run, without parsing the manifest,
 * loading a compiler or starting a worker. Every kind of change defeats it: the manifest, a `$ref`'d
 * file, a view's HTML, a flag, the banner, the generator itself, and a generated, user or ledger
 * file deleted or edited. Each run is a fresh CLI process whose module loads are recorded.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../client/support.js';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-gen-noop-'));
const project = join(scratch, 'project');
const out = join(scratch, 'out');
const clientOut = join(scratch, 'client');
const manifestPath = join(project, 'manifest.yaml');

const MANIFEST = `server: { name: noop, version: 1.0.0 }
views:
  - uri: ui://noop/board
    name: board
    html: views/board.html
tools:
  - name: show_board
    description: Shows the board
    view: ui://noop/board
    inputSchema:
      type: object
      properties:
        city: { $ref: './city.json' }
      required: [city]
  - name: 'clock:now'
    description: The server's clock (a name outside the recommended characters, for a warning)
    inputSchema: { type: object, properties: { zone: { type: string } } }
`;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The run answered from the stamp (its MCP_GEN_CACHE_STATS line says so). */
  noop: boolean;
  /** Every module URL the process loaded. */
  loaded: string[];
}

/** One `mcp-gen server` in a fresh process, from `bin` (this repository's unless a copy is named). */
function server(extra: string[] = [], bin = join(repoRoot, 'bin', 'mcp-gen.js')): Run {
  return mcpGen(['server', manifestPath, '-o', out, ...extra], bin);
}

/** One `mcp-gen client` of the same manifest into `clientOut`, in a fresh process. */
function client(extra: string[] = []): Run {
  return mcpGen(['client', manifestPath, '-o', clientOut, ...extra]);
}

function mcpGen(args: string[], bin = join(repoRoot, 'bin', 'mcp-gen.js')): Run {
  const log = join(scratch, 'imports.log');
  rmSync(log, { force: true });
  const child = spawnSync(process.execPath, ['--import', join(repoRoot, 'test', 'support', 'import-log.mjs'), bin, ...args], {
    cwd: scratch,
    encoding: 'utf8',
    env: { ...process.env, MCP_GEN_IMPORT_LOG: log, MCP_GEN_CACHE_STATS: '1', MCP_GEN_CACHE_DIR: join(scratch, 'cache') },
  });
  const loaded = existsSync(log) ? readFileSync(log, 'utf8').split('\n').map((line) => line.split('\t')[0] ?? '') : [];
  return { status: child.status, stdout: child.stdout, stderr: child.stderr, noop: child.stderr.includes('unit cache: nothing to do'), loaded };
}

/** stderr without the cache statistics line (which says how the run was answered). */
const messages = (run: Run): string => run.stderr.split('\n').filter((line) => !line.startsWith('unit cache:')).join('\n');

/** A full run, then a run that must take the fast path. */
function expectFullThenNoop(extra: string[] = []): Run {
  const full = server(extra);
  expect(full.status, full.stderr).toBe(0);
  expect(full.noop).toBe(false);
  const again = server(extra);
  expect(again.status, again.stderr).toBe(0);
  expect(again.noop).toBe(true);
  return full;
}

/** Makes a file's change time later without changing a byte (what a rewrite of the same bytes does). */
const touchStatus = (path: string): void => chmodSync(path, 0o644);

beforeAll(() => {
  if (!existsSync(join(repoRoot, 'dist', 'cli', 'main.js'))) throw new Error('bin/mcp-gen.js runs dist/: run `npm run build` first');
  mkdirSync(join(project, 'views'), { recursive: true });
  writeFileSync(manifestPath, MANIFEST);
  writeFileSync(join(project, 'city.json'), JSON.stringify({ type: 'string', minLength: 1 }));
  writeFileSync(join(project, 'views', 'board.html'), '<!doctype html><p>board</p>\n');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a server run with nothing to do', () => {
  it('prints what a full run prints, and loads neither the manifest parser, a compiler, prettier nor a worker', () => {
    const cold = server(['--no-version-banner']);
    expect(cold.status, cold.stderr).toBe(0);
    expect(cold.stderr).toMatch(/^warning: .*clock:now/m);
    const fast = server(['--no-version-banner', '--json']);
    expect(fast.noop).toBe(true);
    // Of mcp-gen's own modules, only the command line's, the stamp's and the printing of messages (diagnostics, escape).
    const heavy = fast.loaded.filter(
      (url) =>
        /\/node_modules\/(?:ajv|ajv-formats|json-schema-to-typescript|prettier|ts-morph|yaml|typescript|handlebars)\//.test(url) ||
        /\/dist\/(?:emit|model|write\/(?!unit-cache\.js)|load\/(?!diagnostics\.js|revisions\.js)|printer\/(?!escape\.js))/.test(url),
    );
    expect(heavy).toEqual([]);
    // The same run, made full by a generated file's status (its bytes unchanged): the same document and warnings.
    touchStatus(join(out, 'generated', 'server.ts'));
    const full = server(['--no-version-banner', '--json']);
    expect(full.noop).toBe(false);
    expect(full.loaded.some((url) => url.includes('/dist/emit/'))).toBe(true);
    expect(fast.stdout).toBe(full.stdout);
    expect(messages(fast)).toBe(messages(full));
    expect(JSON.parse(fast.stdout)).toMatchObject({ ok: true, files: { created: [], updated: [] }, warnings: [expect.anything()] });
    // And in plain text, the report and the warning.
    const text = server(['--no-version-banner']);
    expect(text.noop).toBe(true);
    expect(text.stdout).toMatch(/: \d+ unchanged, \d+ user files kept\.\n$/);
    expect(messages(text)).toBe(messages(cold));
  }, 120_000);

  it('is defeated by an edit to the manifest, a $ref’d file or a view’s HTML, and the full run uses the edit', () => {
    writeFileSync(manifestPath, MANIFEST.replace('Shows the board', 'Shows the whole board'));
    expectFullThenNoop(['--no-version-banner']);
    expect(readFileSync(join(out, 'generated', 'server.ts'), 'utf8')).toContain('Shows the whole board');

    writeFileSync(join(project, 'city.json'), JSON.stringify({ type: 'string', minLength: 2 }));
    expectFullThenNoop(['--no-version-banner']);
    expect(readFileSync(join(out, 'generated', 'server.ts'), 'utf8')).toMatch(/"minLength":\s*2/);

    writeFileSync(join(project, 'views', 'board.html'), '<!doctype html><p>the board</p>\n');
    expectFullThenNoop(['--no-version-banner']);
    expect(readFileSync(join(out, 'generated', 'views.ts'), 'utf8')).toContain('the board');
  }, 120_000);

  it('is defeated by another flag or banner, and by a generated, user or ledger file deleted or edited', () => {
    expectFullThenNoop(['--no-version-banner', '--otel']);
    expect(readFileSync(join(out, '.mcp-gen-ledger.json'), 'utf8')).toContain('"otel": true');
    expectFullThenNoop(['--otel']);
    expectFullThenNoop(['--no-version-banner']);

    const generated = join(out, 'generated', 'server.ts');
    const text = readFileSync(generated, 'utf8');
    unlinkSync(generated);
    expectFullThenNoop(['--no-version-banner']);
    expect(readFileSync(generated, 'utf8')).toBe(text);
    // An edit of the same size, as fast as the file system allows.
    writeFileSync(generated, text.replace('Shows', 'SHOWS'));
    expectFullThenNoop(['--no-version-banner']);
    expect(readFileSync(generated, 'utf8')).toBe(text);

    const handler = join(out, 'handlers', 'tools', readdirFirst(join(out, 'handlers', 'tools')));
    unlinkSync(handler);
    expectFullThenNoop(['--no-version-banner']);
    expect(existsSync(handler)).toBe(true);

    const ledger = join(out, '.mcp-gen-ledger.json');
    const ledgerText = readFileSync(ledger, 'utf8');
    writeFileSync(ledger, ledgerText.replace('"generator"', '"generator" '));
    expectFullThenNoop(['--no-version-banner']);
    expect(readFileSync(ledger, 'utf8')).toBe(ledgerText);
  }, 180_000);

  it('leaves `mcp-gen check` as it was: it regenerates in memory and reports an edit', () => {
    expect(server(['--no-version-banner']).noop).toBe(true);
    const check = (): number | null => spawnSync(process.execPath, [join(repoRoot, 'bin', 'mcp-gen.js'), 'check', out], { cwd: scratch, encoding: 'utf8' }).status;
    expect(check()).toBe(0);
    const handlers = join(out, 'generated', 'server.ts');
    writeFileSync(handlers, `${readFileSync(handlers, 'utf8')}// edited\n`);
    expect(check()).toBe(1);
    expect(server(['--no-version-banner']).noop).toBe(false);
    expect(check()).toBe(0);
  }, 120_000);

  it('is defeated by another generator: a module or a runtime file of mcp-gen rewritten', () => {
    // A copy of the package, so its files can be rewritten without touching this checkout.
    const copy = join(scratch, 'mcp-gen');
    for (const part of ['bin', 'dist', 'generated', 'schema', 'templates', 'package.json', join('src', 'runtime')]) cpSync(join(repoRoot, part), join(copy, part), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'));
    const bin = join(copy, 'bin', 'mcp-gen.js');
    const run = (): Run => server(['--no-version-banner'], bin);
    expect(run().noop).toBe(false);
    expect(run().noop).toBe(true);
    for (const file of [join('dist', 'emit', 'server', 'index.js'), join('src', 'runtime', 'README.md'), join('templates', readdirFirst(join(copy, 'templates')))]) {
      writeFileSync(join(copy, file), readFileSync(join(copy, file)));
      expect(run().noop, file).toBe(false);
      expect(run().noop, file).toBe(true);
    }
  }, 180_000);
});

describe('a client run with nothing to do', () => {
  /** mcp-gen's own modules and the libraries a generating run loads. */
  const heavy = (run: Run): string[] =>
    run.loaded.filter(
      (url) =>
        /\/node_modules\/(?:ajv|ajv-formats|json-schema-to-typescript|prettier|ts-morph|yaml|typescript|handlebars)\//.test(url) ||
        /\/dist\/(?:emit|model|write\/(?!unit-cache\.js)|load\/(?!diagnostics\.js|revisions\.js)|printer\/(?!escape\.js))/.test(url),
    );

  it('prints what a full run prints (the project advice worked out again), loading no generator', () => {
    writeFileSync(manifestPath, MANIFEST);
    // A project around the output without @types/node: the full run advises installing it.
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'app', type: 'module' }));
    const cold = client(['--no-version-banner']);
    expect(cold.status, cold.stderr).toBe(0);
    expect(cold.stderr).toMatch(/^warning: .*clock:now/m);
    expect(cold.stderr).toContain('@types/node');
    const fast = client(['--no-version-banner']);
    expect(fast.noop).toBe(true);
    expect(heavy(fast)).toEqual([]);
    expect(messages(fast)).toBe(messages(cold));
    expect(fast.stdout).toMatch(/: \d+ unchanged\.\n$/);
    // The same run made full by a generated file's status (its bytes unchanged): the same report.
    touchStatus(join(clientOut, 'client.ts'));
    const same = client(['--no-version-banner']);
    expect(same.noop).toBe(false);
    expect(fast.stdout).toBe(same.stdout);
    expect(messages(fast)).toBe(messages(same));
    // The advice follows the project, not the stamp: with @types/node installed it is gone.
    mkdirSync(join(scratch, 'node_modules', '@types', 'node'), { recursive: true });
    writeFileSync(join(scratch, 'node_modules', '@types', 'node', 'package.json'), JSON.stringify({ name: '@types/node', version: '20.0.0' }));
    const advised = client(['--no-version-banner']);
    expect(advised.noop).toBe(true);
    expect(advised.stderr).not.toContain('@types/node');
    // The same document with --json, made full by a generated file's status.
    const json = client(['--no-version-banner', '--json']);
    expect(json.noop).toBe(true);
    touchStatus(join(clientOut, 'client.ts'));
    const full = client(['--no-version-banner', '--json']);
    expect(full.noop).toBe(false);
    expect(json.stdout).toBe(full.stdout);
    rmSync(join(scratch, 'package.json'));
    rmSync(join(scratch, 'node_modules'), { recursive: true });
  }, 120_000);

  it('is defeated by an edit to the manifest or a $ref’d file, another flag, and an edited generated file', () => {
    client(['--no-version-banner']);
    writeFileSync(manifestPath, MANIFEST.replace('Shows the board', 'Shows the client board'));
    const edited = client(['--no-version-banner']);
    expect(edited.noop).toBe(false);
    expect(readFileSync(join(clientOut, 'client.ts'), 'utf8')).toContain('Shows the client board');
    expect(client(['--no-version-banner']).noop).toBe(true);

    writeFileSync(join(project, 'city.json'), JSON.stringify({ type: 'string', minLength: 3 }));
    expect(client(['--no-version-banner']).noop).toBe(false);
    expect(client(['--no-version-banner']).noop).toBe(true);

    expect(client(['--no-version-banner', '--browser']).noop).toBe(false);
    expect(client(['--no-version-banner', '--browser']).noop).toBe(true);
    expect(client(['--no-version-banner']).noop).toBe(false);

    const generated = join(clientOut, 'client.ts');
    const text = readFileSync(generated, 'utf8');
    writeFileSync(generated, text.replace('Shows', 'SHOWS'));
    expect(client(['--no-version-banner']).noop).toBe(false);
    expect(readFileSync(generated, 'utf8')).toBe(text);
    // --check never answers from the stamp: it compares.
    writeFileSync(generated, `${text}// edited\n`);
    expect(client(['--no-version-banner', '--check']).status).toBe(1);
  }, 180_000);
});

/** The first file (not folder) of a folder, by name. */
function readdirFirst(dir: string): string {
  return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name).sort()[0] as string;
}
