/**
 * `mcp-gen check`: each output folder regenerated in memory from what its ledger records (or from
 * a config file) and compared with the disk, through the CLI in process.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Console } from '../../src/cli/output.js';
import { splitCommand } from '../../src/load/introspect.js';
import { everythingBin, repoRoot } from '../client/support.js';
import { shippedSchema, withConstraints } from '../types/spec-variants.js';
import { fixCommand } from '../../src/check/fix-command.js';
import { targetFromRecipe } from '../../src/check/target.js';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Console = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const MANIFEST = `server: { name: checked, version: 1.0.0 }
tools:
  - name: add
    description: Adds two numbers.
    inputSchema: { $ref: './schemas/pair.json' }
    outputSchema:
      type: object
      properties: { sum: { type: number } }
      required: [sum]
`;

const PAIR = (description: string): string =>
  JSON.stringify({ type: 'object', description, properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });

/** A repository with a manifest, a schema it reaches by $ref, and a server generated from them. */
async function repository(): Promise<{ dir: string; out: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-check-'));
  await mkdir(join(dir, 'schemas'));
  await writeFile(join(dir, 'manifest.yaml'), MANIFEST);
  await writeFile(join(dir, 'schemas', 'pair.json'), PAIR('Two numbers.'));
  const out = join(dir, 'server');
  const made = await run('server', join(dir, 'manifest.yaml'), '-o', out);
  expect(made.code, made.err).toBe(0);
  return { dir, out };
}

async function files(dir: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const name of (await readdir(dir, { recursive: true })).sort()) {
    try {
      found[name] = await readFile(join(dir, name), 'utf8');
    } catch {
      // a folder
    }
  }
  return found;
}

/** The command the report says fixes the output, run through the CLI. */
async function runFix(err: string): Promise<number> {
  const line = /fix with: (.*)$/m.exec(err)?.[1];
  expect(line).toBeDefined();
  const [tool, ...args] = splitCommand(line as string);
  expect(tool).toBe('mcp-gen');
  return (await run(...args)).code;
}

describe('mcp-gen check: an output folder', () => {
  it('records the command, options and every input with its hash in the ledger', async () => {
    const { out } = await repository();
    const ledger = JSON.parse(await readFile(join(out, '.mcp-gen-ledger.json'), 'utf8'));
    expect(ledger.ledgerFormat).toBe(2);
    expect(ledger.mcpGenVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(ledger.recipe.command).toBe('server');
    expect(ledger.recipe.options).toEqual({ manifest: '../manifest.yaml' });
    expect(ledger.recipe.inputs.map((i: { role: string; path: string }) => [i.role, i.path])).toEqual([
      ['manifest', '../manifest.yaml'],
      ['schema', '../schemas/pair.json'],
    ]);
    expect(ledger.recipe.inputs[1].sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is deterministic: the same command on the same inputs in another folder gives the same ledger bytes', async () => {
    const ledgers: string[] = [];
    const home = process.cwd();
    for (const { dir } of [await repository(), await repository()]) {
      process.chdir(dir);
      try {
        expect((await run('server', 'manifest.yaml', '-o', 'again')).code).toBe(0);
      } finally {
        process.chdir(home);
      }
      ledgers.push(await readFile(join(dir, 'again', '.mcp-gen-ledger.json'), 'utf8'));
    }
    expect(ledgers[1]).toBe(ledgers[0]);
    expect(ledgers[0]).not.toMatch(/tmp|mcp-gen-check-/);
  });

  it('is current right after generation: exit 0', async () => {
    const { out } = await repository();
    const result = await run('check', out);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/server: up to date\./);
  });

  it('names a stale, a missing and an extra file and a changed input, exit 1; the printed fix makes it current', async () => {
    const { dir, out } = await repository();
    await writeFile(join(out, 'generated/types.ts'), `${await readFile(join(out, 'generated/types.ts'), 'utf8')}// edited\n`);
    await rm(join(out, 'generated/validators.ts'));
    // A file an earlier run generated that this one no longer plans.
    await writeFile(join(out, 'generated/legacy.ts'), '/* @generated by mcp-gen. DO NOT EDIT. */\nexport {};\n');
    const ledgerPath = join(out, '.mcp-gen-ledger.json');
    const ledger = JSON.parse(await readFile(ledgerPath, 'utf8'));
    ledger.files['generated/legacy.ts'] = '0'.repeat(64);
    await writeFile(ledgerPath, `${JSON.stringify(ledger, null, 2)}\n`);
    await writeFile(join(dir, 'schemas', 'pair.json'), PAIR('Two numbers to add.'));
    const before = await files(dir);

    const result = await run('check', out);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/stale: .*server\/generated\/types\.ts/);
    expect(result.err).toMatch(/missing: .*server\/generated\/validators\.ts/);
    expect(result.err).toMatch(/extra: .*server\/generated\/legacy\.ts/);
    expect(result.err).toMatch(/input changed: .*schemas\/pair\.json/);
    expect(result.err).toMatch(/fix with: mcp-gen server .*manifest\.yaml -o .*server$/m);
    expect(await files(dir)).toEqual(before); // check writes nothing

    expect(await runFix(result.err)).toBe(0);
    const after = await run('check', out);
    expect(after.code, after.err).toBe(0);
    expect(existsSync(join(out, 'generated/legacy.ts'))).toBe(false);
  });

  it('--json gives the documented shape', async () => {
    const { dir, out } = await repository();
    await writeFile(join(dir, 'schemas', 'pair.json'), PAIR('Changed.'));
    const result = await run('check', out, '--json');
    expect(result.code).toBe(1);
    const parsed = JSON.parse(result.out);
    expect(parsed.exitCode).toBe(1);
    expect(parsed.outputs).toHaveLength(1);
    const [entry] = parsed.outputs;
    expect(entry.status).toBe('stale');
    expect(entry.out).toMatch(/server$/);
    expect(entry.changedInputs).toEqual([expect.stringMatching(/schemas\/pair\.json$/)]);
    expect(entry.stale).toContain('generated/types.ts');
    expect(entry).toMatchObject({ missing: [], extra: [], vanishedInputs: [] });
    expect(entry.fix).toMatch(/^mcp-gen server /);
  });

  it('with no path, checks every ledger below the working directory, or the config there', async () => {
    const { dir } = await repository();
    const home = process.cwd();
    process.chdir(dir);
    try {
      const found = await run('check');
      expect(found.code, found.err).toBe(0);
      expect(found.out).toBe('server: up to date.');
      await writeFile('mcp-gen.config.json', JSON.stringify({ targets: [{ command: 'server', manifest: 'manifest.yaml', out: 'other' }] }));
      const configured = await run('check');
      expect(configured.code).toBe(1);
      expect(configured.err).toMatch(/^missing: other\/generated\/types\.ts$/m);
      expect(configured.err).toMatch(/fix with: mcp-gen server manifest\.yaml -o other$/m);
      expect(await runFix(configured.err)).toBe(0);
      const fixed = await run('check');
      expect(fixed.code, fixed.err).toBe(0);
    } finally {
      process.chdir(home);
    }
  });

  it('a config target takes the flags that shaped its output; a key it does not take is refused', async () => {
    const { dir } = await repository();
    const specDir = join(dir, 'errata', '2025-11-25');
    await mkdir(specDir, { recursive: true });
    await writeFile(join(specDir, 'schema.json'), JSON.stringify(withConstraints(shippedSchema('2025-11-25'), 64)));
    const home = process.cwd();
    process.chdir(dir);
    try {
      const flags = ['--spec', 'errata/2025-11-25/schema.json', '--import-extension', 'ts', '--otel', '--target', 'web', '--dockerfile'];
      const made = await run('server', 'manifest.yaml', '-o', 'flagged', ...flags);
      expect(made.code, made.err).toBe(0);
      const target = { command: 'server', manifest: 'manifest.yaml', out: 'flagged', spec: 'errata/2025-11-25/schema.json', importExtension: 'ts', otel: true, target: 'web', dockerfile: true };
      await writeFile('mcp-gen.config.json', JSON.stringify({ targets: [target] }));
      const checked = await run('check');
      expect(checked.code, checked.err).toBe(0);
      // Without them the same folder reads as drift: the flags are what the check regenerates with.
      await writeFile('mcp-gen.config.json', JSON.stringify({ targets: [{ command: 'server', manifest: 'manifest.yaml', out: 'flagged', spec: target.spec }] }));
      expect((await run('check')).code).toBe(1);
      await writeFile('mcp-gen.config.json', JSON.stringify({ targets: [{ ...target, specFile: 'x' }] }));
      const refused = await run('check');
      expect(refused.code).toBe(2);
      expect(refused.err).toMatch(/targets\[0\]: a server target has no "specFile"/);
      expect(refused.err).toMatch(/known: .*importExtension/);
      await writeFile('mcp-gen.config.json', JSON.stringify({ targets: [{ ...target, otel: 'yes' }] }));
      expect((await run('check')).err).toMatch(/targets\[0\]\.otel must be true or false/);
    } finally {
      process.chdir(home);
    }
  });

  it('several folders in one run, each named', async () => {
    // The repository's own outputs: all current (the suite's global setup generated them).
    const result = await run('check', 'examples/weather/server', 'bench/server');
    expect(result.code, result.err).toBe(0);
    expect(result.out.split('\n')).toEqual(['examples/weather/server: up to date.', 'bench/server: up to date.']);
  });
});

describe('mcp-gen check: bad input, exit 2, nothing written', () => {
  it.each([
    ['an unreadable ledger', async (out: string) => writeFile(join(out, '.mcp-gen-ledger.json'), '{ not json'), /unreadable \.mcp-gen-ledger\.json: not JSON/],
    [
      'a ledger whose recipe is malformed',
      async (out: string) => {
        const ledger = JSON.parse(await readFile(join(out, '.mcp-gen-ledger.json'), 'utf8'));
        await writeFile(join(out, '.mcp-gen-ledger.json'), JSON.stringify({ ...ledger, recipe: { ...ledger.recipe, inputs: 'all of them' } }));
      },
      /unreadable \.mcp-gen-ledger\.json: its recipe has no inputs list/,
    ],
    [
      'a ledger from a newer mcp-gen',
      async (out: string) => {
        const ledger = JSON.parse(await readFile(join(out, '.mcp-gen-ledger.json'), 'utf8'));
        await writeFile(join(out, '.mcp-gen-ledger.json'), JSON.stringify({ ...ledger, ledgerFormat: 99, mcpGenVersion: '9.0.0' }));
      },
      /has format 99, written by a newer mcp-gen \(9\.0\.0\); this one reads up to format 2: upgrade mcp-gen/,
    ],
    [
      'an old ledger without a recipe',
      async (out: string) => {
        const ledger = JSON.parse(await readFile(join(out, '.mcp-gen-ledger.json'), 'utf8'));
        await writeFile(join(out, '.mcp-gen-ledger.json'), JSON.stringify({ generator: 'mcp-gen', files: ledger.files }));
      },
      /does not record how this folder was made \(written by an older mcp-gen\); regenerate once with mcp-gen server .*manifest\.yaml -o .*server/,
    ],
    ['a vanished input', async (out: string) => rm(join(out, '..', 'schemas', 'pair.json')), /input vanished: .*schemas\/pair\.json; restore it/],
    [
      'a ledger that cannot be read at all (a folder in its place)',
      async (out: string) => {
        await rm(join(out, '.mcp-gen-ledger.json'));
        await mkdir(join(out, '.mcp-gen-ledger.json'));
      },
      /cannot read \.mcp-gen-ledger\.json: EISDIR/,
    ],
    ['the manifest itself vanished', async (out: string) => rm(join(out, '..', 'manifest.yaml')), /input vanished: .*manifest\.yaml; restore it/],
  ])('%s', async (_what, damage, message) => {
    const { dir, out } = await repository();
    await damage(out);
    const before = await files(dir);
    const result = await run('check', out);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
    expect(await files(dir)).toEqual(before);
    const json = JSON.parse((await run('check', out, '--json')).out);
    expect(json.outputs[0].status).toBe('error');
  });

  it('a path that is neither an output folder nor a config', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-check-'));
    const result = await run('check', dir);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/no \.mcp-gen-ledger\.json in this folder/);
  });
});

describe('mcp-gen check: a config file', () => {
  it('checks the two targets it lists (a server and protocol types) and names the stale one', async () => {
    const { dir } = await repository();
    const config = join(dir, 'mcp-gen.config.yaml');
    await writeFile(config, 'targets:\n  - { command: server, manifest: manifest.yaml, out: server }\n  - { command: types, spec: 2025-11-25, docs: none, out: protocol }\n');
    const home = process.cwd();
    process.chdir(dir);
    try {
      // Generated the way the config says, from the config's folder.
      expect((await run('server', 'manifest.yaml', '-o', 'server')).code).toBe(0);
      expect((await run('types', '--spec', '2025-11-25', '--docs', 'none', '-o', 'protocol')).code).toBe(0);
    } finally {
      process.chdir(home);
    }
    const current = await run('check', config);
    expect(current.code, current.err).toBe(0);
    expect(current.out.split('\n')).toEqual([expect.stringMatching(/server: up to date\.$/), expect.stringMatching(/protocol: up to date\.$/)]);

    await writeFile(join(dir, 'protocol', 'types.ts'), 'export {};\n');
    const stale = await run('check', config, '--json');
    expect(stale.code).toBe(1);
    const outputs = JSON.parse(stale.out).outputs;
    expect(outputs.map((o: { status: string }) => o.status)).toEqual(['current', 'stale']);
    expect(outputs[1].stale).toEqual(['types.ts']);
    expect(outputs[1].fix).toMatch(/^cd .* && mcp-gen types --spec 2025-11-25 --docs none -o protocol$/);
  });

  it('a config that lists no targets is refused, exit 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-check-'));
    await writeFile(join(dir, 'mcp-gen.config.json'), '{ "outputs": [] }');
    const result = await run('check', join(dir, 'mcp-gen.config.json'));
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/a config lists its outputs under "targets"/);
  });
});

describe('mcp-gen check: clients', () => {
  it('a --from-snapshot client: current, then stale when the snapshot changes, then fixed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-check-'));
    const snapshot = join(dir, 'snapshot.json');
    const made = await run('client', '--from-command', `node ${everythingBin} stdio`, '--save-snapshot', snapshot, '-o', join(dir, 'live'));
    expect(made.code, made.err).toBe(0);
    const out = join(dir, 'client');
    expect((await run('client', '--from-snapshot', snapshot, '-o', out)).code).toBe(0);
    expect((await run('check', out)).code).toBe(0);
    const text = JSON.parse(await readFile(snapshot, 'utf8'));
    text.tools = text.tools.slice(1);
    await writeFile(snapshot, JSON.stringify(text));
    const result = await run('check', out);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/input changed: .*snapshot\.json/);
    expect(result.err).toMatch(/stale: .*client\/client\.ts/);
    expect(await runFix(result.err)).toBe(0);
    expect((await run('check', out)).code).toBe(0);
  });

  it('a live client is checked offline against the snapshot saved beside it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-check-'));
    const out = join(dir, 'client');
    // A command that only works once: checking must never start it again without --live.
    const marker = join(dir, 'started');
    await writeFile(
      join(dir, 'server.mjs'),
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'x');\nawait import(${JSON.stringify(pathToFileURL(everythingBin).href)});\n`,
    );
    const made = await run('client', '--from-command', `node ${join(dir, 'server.mjs')} stdio`, '-o', out);
    expect(made.code, made.err).toBe(0);
    expect(existsSync(join(out, '.mcp-gen-snapshot.json'))).toBe(true);
    await rm(marker);
    const result = await run('check', out);
    expect(result.code, result.err).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const ledger = JSON.parse(await readFile(join(out, '.mcp-gen-ledger.json'), 'utf8'));
    expect(ledger.recipe.inputs).toEqual([{ role: 'snapshot', path: '.mcp-gen-snapshot.json', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    // --live asks the server again (and the same server gives the same output).
    const live = await run('check', out, '--live');
    expect(live.code, live.err).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  it('check --live offers the live server the revisions the client was made with (--protocol-version)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-check-'));
    const out = join(dir, 'client');
    const made = await run('client', '--from-command', `node ${everythingBin} stdio`, '--protocol-version', '2025-06-18', '-o', out);
    expect(made.code, made.err).toBe(0);
    const ledger = JSON.parse(await readFile(join(out, '.mcp-gen-ledger.json'), 'utf8'));
    expect(ledger.recipe.options).toEqual({ fromCommand: `node ${everythingBin} stdio`, protocolVersions: '2025-06-18' });
    expect(JSON.parse(await readFile(join(out, '.mcp-gen-snapshot.json'), 'utf8')).protocolVersion).toBe('2025-06-18');
    // Offered every revision, the server would choose a newer one: a different snapshot, drift.
    const live = await run('check', out, '--live');
    expect(live.code, live.err).toBe(0);
    // The command that fixes drift offers the same revisions.
    expect(fixCommand(targetFromRecipe(out, ledger.recipe))).toContain('--protocol-version 2025-06-18 -o');
  });

  it('a --from-url client is checked against its saved snapshot after the server is gone; --live asks the server', async () => {
    const port = await new Promise<number>((done) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => done(port));
      });
    });
    const child = spawn(process.execPath, [join(repoRoot, 'test/client/fixtures/everything-http.mjs')], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise((done) => child.once('exit', done));
    try {
      await new Promise<void>((done, fail) => {
        let log = '';
        child.stderr!.on('data', (chunk: Buffer) => {
          log += chunk.toString();
          if (log.includes('listening on port')) done();
        });
        child.once('exit', () => fail(new Error(`server-everything exited:\n${log}`)));
      });
      const url = `http://127.0.0.1:${port}/mcp`;
      const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-check-'));
      const out = join(dir, 'client');
      const made = await run('client', '--from-url', url, '-o', out);
      expect(made.code, made.err).toBe(0);
      const ledger = JSON.parse(await readFile(join(out, '.mcp-gen-ledger.json'), 'utf8'));
      expect(ledger.recipe.options).toEqual({ fromUrl: url });
      expect(ledger.files['.mcp-gen-snapshot.json']).toMatch(/^[0-9a-f]{64}$/);
      child.kill();
      await exited;
      const offline = await run('check', out);
      expect(offline.code, offline.err).toBe(0);
      const live = await run('check', out, '--live');
      expect(live.code).toBe(2);
      expect(live.err).toMatch(/cannot connect/);
    } finally {
      child.kill();
    }
  }, 60_000);
});
