/**
 * A writing command (server, client, types) refuses an output folder whose ledger it cannot trust:
 * the ledger alone says which files there are mcp-gen's to replace or delete, so an unreadable one,
 * or one a newer mcp-gen wrote, is bad input: exit 2, a clear message, nothing written.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Console } from '../../src/cli/output.js';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Console = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const MANIFEST = `server: { name: guarded, version: 1.0.0 }
tools:
  - name: echo
    description: Says it back.
    inputSchema: { type: object, properties: { text: { type: string } }, required: [text] }
`;

/** Every file below `dir` with its text (folders by name), to show nothing changed. */
async function tree(dir: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const entry of (await readdir(dir, { recursive: true, withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(entry.parentPath, entry.name);
    found[path] = entry.isDirectory() ? '(folder)' : await readFile(path, 'utf8');
  }
  return found;
}

const newer = (text: string): string => JSON.stringify({ ...JSON.parse(text), ledgerFormat: 99, mcpGenVersion: '9.0.0' });

const DAMAGE: [string, (ledger: string) => Promise<void>, RegExp][] = [
  ['not JSON', (ledger) => writeFile(ledger, '{ not json'), /\.mcp-gen-ledger\.json: unreadable \.mcp-gen-ledger\.json: not JSON .* — restore it .*or delete it to generate afresh/],
  ['not an mcp-gen ledger', (ledger) => writeFile(ledger, '{"files": []}'), /unreadable \.mcp-gen-ledger\.json: not an mcp-gen ledger/],
  ['a folder where the ledger belongs', async (ledger) => (await rm(ledger), mkdir(ledger)), /\.mcp-gen-ledger\.json: cannot read the ledger: EISDIR/],
  ['written by a newer mcp-gen', async (ledger) => writeFile(ledger, newer(await readFile(ledger, 'utf8'))), /has format 99, written by a newer mcp-gen \(9\.0\.0\); this one reads up to format 2: upgrade mcp-gen/],
];

describe('a writing command and a ledger it cannot trust: exit 2, nothing written', () => {
  /** A manifest and the server generated from it, copied for each case. */
  let made: string;
  beforeAll(async () => {
    made = await mkdtemp(join(tmpdir(), 'mcp-gen-ledger-guard-'));
    await writeFile(join(made, 'manifest.yaml'), MANIFEST);
    const result = await run('server', join(made, 'manifest.yaml'), '-o', join(made, 'server'));
    expect(result.code, result.err).toBe(0);
  }, 120_000);

  it.each(DAMAGE)('mcp-gen server, ledger %s', async (_what, damage, message) => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-ledger-guard-'));
    await cp(made, dir, { recursive: true });
    const out = join(dir, 'server');
    // A stale generated file the run would rewrite, so "nothing written" is not vacuous.
    await writeFile(join(out, 'generated', 'server.ts'), '// edited\n');
    await damage(join(out, '.mcp-gen-ledger.json'));
    const before = await tree(dir);
    for (const extra of [[], ['--check']]) {
      const result = await run('server', join(dir, 'manifest.yaml'), '-o', out, ...extra);
      expect(result.code, result.err).toBe(2);
      expect(result.err).toMatch(message);
      expect(result.err).toMatch(/nothing was written/);
      expect(await tree(dir)).toEqual(before);
    }
  }, 120_000);

  it('mcp-gen types and mcp-gen client refuse a newer ledger too', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-ledger-guard-'));
    await writeFile(join(dir, 'manifest.yaml'), MANIFEST);
    const outputs: [string, string[]][] = [
      [join(dir, 'types'), ['types', '--spec', '2025-11-25', '-o', join(dir, 'types')]],
      [join(dir, 'client'), ['client', join(dir, 'manifest.yaml'), '-o', join(dir, 'client')]],
    ];
    for (const [out, argv] of outputs) {
      expect((await run(...argv)).code).toBe(0);
      const ledger = join(out, '.mcp-gen-ledger.json');
      await writeFile(ledger, newer(await readFile(ledger, 'utf8')));
      await rm(join(out, (await readdir(out)).find((f) => f.endsWith('.ts')) as string));
      const before = await tree(dir);
      const result = await run(...argv);
      expect(result.code, result.err).toBe(2);
      expect(result.err).toMatch(/written by a newer mcp-gen \(9\.0\.0\)/);
      expect(await tree(dir)).toEqual(before);
    }
  }, 120_000);
});
