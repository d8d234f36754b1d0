// bench/summary.mjs turns the benches' JSON reports into the one table of ratios that leads
// bench/RESULTS.md. No timing here: a small synthetic results folder, and the arithmetic and the
// verdicts checked against figures worked out by hand.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ratioRow, verdict, type RatioRow } from '../../bench/lib/ratios.mjs';

const summaryScript = fileURLToPath(new URL('../../bench/summary.mjs', import.meta.url));
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function resultsFolder(files: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-gen-bench-summary-'));
  folders.push(dir);
  for (const [name, report] of Object.entries(files)) writeFileSync(path.join(dir, name), typeof report === 'string' ? report : JSON.stringify(report));
  return dir;
}

function summary(dir: string, ...flags: string[]) {
  return spawnSync(process.execPath, [summaryScript, '--dir', dir, ...flags], { encoding: 'utf8' });
}

const machine = { nproc: 2, cpu: 'Test CPU 3000', ramGiB: 7.8, node: 'v24.0.0' };

describe('ratioRow', () => {
  it('pairs the samples round by round and reports the median and range of the ratios', () => {
    // Round ratios 2, 1.5, 3: median 2, range 1.5–3. The medians of the sides (2, 4) give 2 as well.
    const row = ratioRow({ metric: 'cpu', unit: 's', reference: 'floor', ours: [4, 3, 9], theirs: [2, 2, 3] });
    expect(row).toEqual({ metric: 'cpu', unit: 's', reference: 'floor', ours: 4, theirs: 2, ratio: 2, range: [1.5, 3], rounds: 3 });
  });

  it('pairs rather than dividing medians', () => {
    // Medians 10 and 10 would say 1x; paired, ours is twice the floor in the two rounds that count.
    const row = ratioRow({ metric: 'm', reference: 'floor', ours: [10, 20, 10], theirs: [5, 10, 20] });
    expect(row.ratio).toBe(2);
    expect(row.range).toEqual([0.5, 2]);
  });

  it('compares every round with a reference measured once', () => {
    const row = ratioRow({ metric: 'bytes', reference: 'theirs', ours: [30, 60], theirs: [20] });
    expect(row.ratio).toBe(2.25);
    expect(row.range).toEqual([1.5, 3]);
  });

  it('refuses samples that do not pair', () => {
    expect(() => ratioRow({ metric: 'm', reference: 'floor', ours: [1, 2, 3], theirs: [1, 2] })).toThrow(/3 samples of ours against 2 of floor/);
    expect(() => ratioRow({ metric: 'm', reference: 'floor', ours: [], theirs: [1] })).toThrow(/no samples/);
  });

  it('judges a ratio target on the ratio and a value target on ours, at or below the bound', () => {
    const at = (ours: number, theirs: number, target: RatioRow['target']) => verdict(ratioRow({ metric: 'm', reference: 'r', ours: [ours], theirs: [theirs], ...(target ? { target } : {}) }));
    expect(at(3, 1, { ratio: 3 })).toBe('met');
    expect(at(3.1, 1, { ratio: 3 })).toBe('MISSED');
    expect(at(9, 1, { value: 10 })).toBe('met'); // 9x the reference, under the absolute bound
    expect(at(11, 100, { value: 10 })).toBe('MISSED');
    expect(at(1, 1, undefined)).toBe('');
    expect(at(0, 1, { ratio: 1 })).toBe('–'); // a window too short for the CPU clock
  });
});

describe('bench/summary.mjs', () => {
  const scale = {
    date: '2026-12-07T05:00:00.000Z',
    machine,
    loadAverageAtStart: [1.5, 2, 2.5],
    loadAverageAtEnd: [1.25, 1.75, 2.25],
    ratios: [
      ratioRow({ metric: 'no-op regeneration, CPU', unit: 's', reference: 'node -e 0', ours: [0.3, 0.2, 0.25], theirs: [0.05, 0.05, 0.05], target: { ratio: 4 } }),
      ratioRow({ metric: 'one change, CPU', unit: 's', reference: 'node -e 0', ours: [0.5, 0.4], theirs: [0.05, 0.05], target: { ratio: 4 } }),
    ],
  };
  const openapi = {
    date: '2026-12-07T05:10:00.000Z',
    machine,
    loadAverageAtStart: [3, 3, 3],
    loadAverageAtEnd: [4, 4, 4],
    ratios: [
      ratioRow({ metric: 'server output', unit: 'MB', reference: 'openapi-mcp-generator', ours: [8], theirs: [2], target: { value: 10 } }),
      ratioRow({ metric: 'first tools/list', unit: 'ms', reference: 'openapi-mcp-generator', ours: [30, 50], theirs: [60, 50] }),
    ],
  };

  const tableRows = (text: string) => text.split('\n').filter((l) => l.startsWith('| '));
  const header = '| bench | metric | ours | reference | ratio | range (min – max) | target | verdict | rounds |';
  const untargeted = '| openapi | first tools/list (ms) | 40.0 | openapi-mcp-generator 55.0 | 0.75x | 0.50x – 1.00x |  |  | 2 |';

  it('prints one table of the targeted ratios, issue 42 benches first, with ratios, ranges, targets, verdicts and rounds', () => {
    const dir = resultsFolder({ 'scale.json': scale, 'openapi.json': openapi, 'size.json': { date: 'x', machine } });
    const run = summary(dir);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const rows = tableRows(run.stdout);
    expect(rows[0]).toBe(header);
    expect(rows.slice(2)).toEqual([
      '| openapi | server output (MB) | 8.00 | openapi-mcp-generator 2.00 | 4.00x | 4.00x – 4.00x | ≤ 10 MB | met | 1 |',
      // Per-round ratios 6, 4, 5: median 5 over the 4x target, the best round under it.
      '| scale | no-op regeneration, CPU (s) | 0.25 | node -e 0 0.050 | 5.00x | 4.00x – 6.00x | ≤ 4x | MISSED | 3 |',
      '| scale | one change, CPU (s) | 0.45 | node -e 0 0.050 | 9.00x | 8.00x – 10.00x | ≤ 4x | MISSED | 2 |',
    ]);
    expect(run.stdout).toContain('Test CPU 3000, 2 cores, 8 GiB RAM, Node v24.0.0');
    expect(run.stdout).toContain('Targets: 1 met, 2 missed; 1 more ratios without a target (`--all` lists them).');
    expect(run.stdout).toContain('- scale: 2026-12-07T05:00:00.000Z, load (1 / 5 / 15 min) before 1.50 / 2.00 / 2.50, after 1.25 / 1.75 / 2.25');
    expect(run.stdout).toContain('Reports without ratios (not in the table): size.');
    expect(run.stdout).toContain('2026-12-07 05:00 to 2026-12-07 05:10 UTC');
  });

  it('adds the ratios without a target in a second table with --all', () => {
    const run = summary(resultsFolder({ 'scale.json': scale, 'openapi.json': openapi }), '--all');
    expect(run.status).toBe(0);
    const rows = tableRows(run.stdout);
    expect(rows.filter((row) => row === header)).toHaveLength(2);
    expect(rows.at(-1)).toBe(untargeted);
    expect(run.stdout).toContain('1 more ratios without a target below.');
  });

  it('prints more digits where two would hide which side of the target a ratio lies', () => {
    const close = ratioRow({ metric: 'cpu', reference: 'floor', ours: [110.04], theirs: [100], target: { ratio: 1.1 } });
    const run = summary(resultsFolder({ 'http.json': { machine, ratios: [close] } }));
    expect(tableRows(run.stdout).at(-1)).toBe('| http | cpu | 110 | floor 100 | 1.1004x | 1.10x – 1.10x | ≤ 1.1x | MISSED | 1 |');
  });

  it('says so when the reports come from more than one machine', () => {
    const dir = resultsFolder({ 'scale.json': scale, 'openapi.json': { ...openapi, machine: { ...machine, cpu: 'Other CPU' } } });
    expect(summary(dir).stdout).toContain('MORE THAN ONE MACHINE');
  });

  it('fails clearly on a folder without ratios and on a report that is not JSON', () => {
    const empty = summary(resultsFolder({ 'size.json': { machine } }));
    expect(empty.status).not.toBe(0);
    expect(empty.stderr).toMatch(/no report in .* holds ratios: run the benches first/);
    const broken = summary(resultsFolder({ 'scale.json': '{ not json' }));
    expect(broken.status).not.toBe(0);
    expect(broken.stderr).toMatch(/scale\.json is not JSON/);
  });
});
