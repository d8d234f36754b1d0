/**
 * The two test tiers (vitest.config.ts, docs/testing.md): every test file under test/ runs in
 * exactly one of them, so `npm run test:all` drops none, and each slow-tier pattern still names a
 * file, so a renamed slow test does not slip into `npm test` unnoticed. Reads vitest's own file
 * list, as `npx vitest list` prints it.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { expect, test } from 'vitest';
import { SLOW_TESTS } from '../vitest.config.js';

const root = join(import.meta.dirname, '..');

function listedFiles(): { file: string; project: string }[] {
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const result = spawnSync(process.execPath, [vitest, 'list', '--filesOnly', '--json'], { cwd: root, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  const entries = JSON.parse(result.stdout) as { file: string; projectName: string }[];
  return entries.map(({ file, projectName }) => ({ file: relative(root, file).split(sep).join('/'), project: projectName }));
}

/** The `*.test.ts` files under test/, outside installed packages and the apps matrix's work folder. */
function testFiles(): string[] {
  return readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .map((path) => `test/${path.split(sep).join('/')}`)
    .filter((path) => path.endsWith('.test.ts') && !path.includes('/node_modules/') && !path.includes('/.work/'))
    .sort();
}

/** The two wildcards the patterns use: `**` (any folders) and `*` (part of one name). */
function globRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\*\*\//g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '(?:[^/]+/)*')}$`);
}

test('every test file is in exactly one tier, and every slow pattern names a file', () => {
  const listed = listedFiles();
  expect(listed.map(({ file }) => file).sort()).toEqual(testFiles());
  expect(new Set(listed.map(({ project }) => project))).toEqual(new Set(['fast', 'slow']));
  const slow = listed.filter(({ project }) => project === 'slow').map(({ file }) => file);
  for (const pattern of SLOW_TESTS) {
    expect(slow.filter((file) => globRegExp(pattern).test(file)), `${pattern} names no test file`).not.toEqual([]);
  }
  for (const file of slow) expect(SLOW_TESTS.some((pattern) => globRegExp(pattern).test(file)), file).toBe(true);
});
