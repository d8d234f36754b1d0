/**
 * `--save-snapshot` into a folder that does not exist yet: the folder is made, as `-o` makes the
 * output folder, instead of an internal error (exit 70) after the server was already read.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { generate, repoRoot } from './support.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

it('makes the snapshot file’s folder', async () => {
  const server = join(repoRoot, 'test/client/fixtures/sdk-server.mjs');
  const home = mkdtempSync(join(tmpdir(), 'mcp-gen-save-snapshot-'));
  dirs.push(home);
  const snapshot = join(home, 'snapshots', 'of', 'server.json');
  const { dir, run } = await generate(['--from-command', `${process.execPath} ${server}`, '--save-snapshot', snapshot]);
  dirs.push(dir);
  expect(run.code, run.err).toBe(0);
  expect(existsSync(snapshot)).toBe(true);
  expect(JSON.parse(readFileSync(snapshot, 'utf8'))).toHaveProperty('tools');
}, 60_000);
