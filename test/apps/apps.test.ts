/**
 * The apps matrix: the generated weather client inside the apps users have. Every setup of
 * setups.ts is made twice, with the client copied in at src/mcp/ and with the `mcp-gen client
 * --package` tarball installed by npm, and each gets three cells: typecheck, build, run (two tools
 * over stdio and HTTP, both eras, typed results checked). One test per cell; a cell a setup does
 * not have is n/a with its reason. The table is printed at the end and written to
 * test/apps/results/APPS.md (ignored by git).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTools, HERE, pool, prepareShared, runApp, VARIANTS, type Outcome, type Shared, type Variant } from './harness.js';
import { COLUMNS, SETUPS, type Column } from './setups.js';

const results = new Map<string, Record<Column, Outcome>>();
const key = (setup: string, variant: Variant): string => `${setup}/${variant}`;
let shared: Shared | undefined;
let startedAt = 0;

beforeAll(async () => {
  startedAt = Date.now();
  ensureTools();
  shared = await prepareShared(SETUPS);
  const prepared = shared;
  const seconds: string[] = [`shared ${((Date.now() - startedAt) / 1000).toFixed(0)} s`];
  const jobs = SETUPS.flatMap((setup) =>
    VARIANTS.map((variant) => async () => {
      const start = Date.now();
      results.set(key(setup.id, variant), await runApp(setup, variant, prepared));
      seconds.push(`${key(setup.id, variant)} ${((Date.now() - start) / 1000).toFixed(0)} s`);
    }),
  );
  await pool(jobs, 3);
  process.stdout.write(`apps matrix, time per app: ${seconds.join(', ')}\n`);
}, 600_000);

afterAll(async () => {
  await shared?.stop();
  const table = renderTable();
  mkdirSync(join(HERE, 'results'), { recursive: true });
  const file = join(HERE, 'results', 'APPS.md');
  writeFileSync(file, `# The apps matrix\n\n${table}\n`);
  process.stdout.write(`\n${table}\n(${((Date.now() - startedAt) / 1000).toFixed(0)} s; written to ${file})\n`);
});

function cellText(outcome: Outcome | undefined): string {
  if (outcome === undefined) return '**FAIL** (not run)';
  if (outcome.status === 'ok') return 'ok';
  if (outcome.status === 'n/a') return `n/a (${outcome.reason})`;
  return `**FAIL** ${outcome.detail.replace(/\|/g, '\\|')}`;
}

function renderTable(): string {
  const rows = ['| setup | client | typecheck | build | run |', '| --- | --- | --- | --- | --- |'];
  for (const setup of SETUPS) {
    for (const variant of VARIANTS) {
      const outcomes = results.get(key(setup.id, variant));
      rows.push(`| ${setup.label} | ${variant === 'copied' ? 'copied to src/mcp/' : 'npm package'} | ${COLUMNS.map((c) => cellText(outcomes?.[c])).join(' | ')} |`);
    }
  }
  return rows.join('\n');
}

/** `>=a.b.c` and `^a.b.c` alternatives joined by `||`: the forms the tools' `engines.node` use. */
function acceptsNode(range: string, version: string): boolean {
  const [major, minor, patch] = version.replace(/^v/, '').split('.').map(Number) as [number, number, number];
  const at = (v: string): number[] => v.split('.').map(Number);
  const atLeast = ([a = 0, b = 0, c = 0]: number[]): boolean => major !== a ? major > a : minor !== b ? minor > b : patch >= c;
  return range.split('||').some((alternative) => {
    const match = /^\s*(>=|\^)\s*(\d+(?:\.\d+){0,2})\s*$/.exec(alternative);
    if (!match) throw new Error(`unread engines range: ${alternative}`);
    const bound = at(match[2] as string);
    return atLeast(bound) && (match[1] === '>=' || major === bound[0]);
  });
}

it("every tool's engines accept the Node the project runs on", () => {
  const tools = JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const checked: string[] = [];
  for (const name of Object.keys(tools.dependencies)) {
    const engines = (JSON.parse(readFileSync(join(HERE, 'node_modules', name, 'package.json'), 'utf8')) as { engines?: { node?: string } }).engines;
    if (engines?.node === undefined) continue;
    expect(acceptsNode(engines.node, process.version), `${name}: engines.node ${engines.node}`).toBe(true);
    checked.push(name);
  }
  expect(checked).toEqual(expect.arrayContaining(['vite', 'esbuild', 'tsx', 'typescript-7', 'webpack', 'ts-loader']));
});

describe.each(SETUPS.map((s) => [s.label, s] as const))('%s', (_, setup) => {
  describe.each(VARIANTS.map((v) => [v] as const))('%s', (variant) => {
    it.each(COLUMNS.map((c) => [c] as const))('%s', (column) => {
      const outcome = results.get(key(setup.id, variant))?.[column];
      expect(outcome, 'the cell did not run').toBeDefined();
      if (outcome?.status === 'FAIL') expect.fail(`${outcome.detail}\n\n${outcome.output.slice(-4000)}`);
      expect(['ok', 'n/a']).toContain(outcome?.status);
    });
  });
});
