#!/usr/bin/env node
// Generation-time benchmark: how long the CLI takes to generate the protocol bindings (types and
// validators, formatted) of all six revisions (five published and the draft), as a user runs it:
// `mcp-gen types --spec <rev> -o <dir>` once per revision. The figure is the median over runs of the
// total for the six, in wall-clock seconds and in CPU seconds of the CLI processes (the stable figure
// on a shared machine). Needs the compiled CLI (`npm run build`).
// It has no peer; in every run beside it: the floor, six `node -e 0` (the same number of process
// starts), and with `--before <checkout>` that checkout's CLI (a worktree of the previous commit after
// its `npm ci`) on the same six revisions, taking turns with ours. Ratios are paired per run.
//
//   node bench/generate.mjs [--runs N] [--before <checkout>] [--out file.json]
//   node bench/generate.mjs --profile <revision> [--top N]   where one revision's time goes
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { median } from './lib/stats.mjs';
import { repoRoot } from './lib/paths.mjs';
import { childrenCpuSeconds } from './lib/proc.mjs';
import { formatProfile } from './lib/cpuprofile.mjs';
import { machine, writeReport } from './lib/report.mjs';
import { printRatios, ratioRow } from './lib/ratios.mjs';

const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', 'draft'];
const TARGET_SECONDS = 20;

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: process.env.MCP_BENCH_GENERATE_RUNS ?? '3' },
    out: { type: 'string' },
    before: { type: 'string' },
    profile: { type: 'string' },
    top: { type: 'string', default: '30' },
  },
});
const runs = Number(flags.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs must be a positive integer, got ${flags.runs}`);
const outFile = flags.out ?? path.join(repoRoot, 'bench', 'results', 'generate.json');

const cli = path.join(repoRoot, 'bin', 'mcp-gen.js');
if (!existsSync(path.join(repoRoot, 'dist', 'cli', 'main.js'))) {
  throw new Error('the CLI is not compiled: run `npm run build` first');
}
// The official schemas come from the repository's copy, never from the network.
const specEnv = {
  ...process.env,
  MCP_SPEC_DIR: process.env.MCP_SPEC_DIR ?? path.join(repoRoot, 'schema', 'mcp-spec'),
};

const beforeCli = flags.before === undefined ? undefined : path.join(path.resolve(flags.before), 'bin', 'mcp-gen.js');

function generate(revision, outDir, nodeFlags = [], withCli = cli) {
  execFileSync(process.execPath, [...nodeFlags, withCli, 'types', '--spec', revision, '-o', outDir], {
    cwd: repoRoot,
    env: specEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

function folderBytes(dir) {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    bytes += statSync(path.join(entry.parentPath ?? entry.path, entry.name)).size;
    files++;
  }
  return { bytes, files };
}

function profileOne(revision, scratch) {
  const profileDir = path.join(scratch, 'profile');
  generate(revision, path.join(scratch, 'out'), ['--cpu-prof', '--cpu-prof-dir', profileDir]);
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  const profile = JSON.parse(readFileSync(path.join(profileDir, file), 'utf8'));
  process.stdout.write(
    formatProfile(profile, { top: Number(flags.top), title: `mcp-gen types --spec ${revision}` }),
  );
}

/** Wall and CPU seconds (of child processes) of `work`. */
function timeAll(work) {
  const cpuBefore = childrenCpuSeconds();
  const started = performance.now();
  work();
  return { wallSeconds: (performance.now() - started) / 1000, cpuSeconds: childrenCpuSeconds() - cpuBefore };
}

function benchmark(scratch) {
  const loadAverageAtStart = loadavg();
  const results = [];
  const output = {};
  for (let run = 0; run < runs; run++) {
    const perRevision = {};
    for (const revision of REVISIONS) {
      const outDir = path.join(scratch, `run-${run}`, revision);
      const cpuBefore = childrenCpuSeconds();
      const started = performance.now();
      generate(revision, outDir);
      perRevision[revision] = {
        wallSeconds: (performance.now() - started) / 1000,
        cpuSeconds: childrenCpuSeconds() - cpuBefore,
      };
      if (run === 0) output[revision] = folderBytes(outDir);
    }
    const sum = (key) => Object.values(perRevision).reduce((total, r) => total + r[key], 0);
    const floor = timeAll(() => {
      for (let i = 0; i < REVISIONS.length; i++) execFileSync(process.execPath, ['-e', '0']);
    });
    const before = beforeCli === undefined ? undefined : timeAll(() => {
      for (const revision of REVISIONS) generate(revision, path.join(scratch, `before-${run}`, revision), [], beforeCli);
    });
    results.push({ wallSeconds: sum('wallSeconds'), cpuSeconds: sum('cpuSeconds'), perRevision, floor, ...(before ? { before } : {}) });
    process.stderr.write(
      `run ${run + 1}/${runs}: ${sum('wallSeconds').toFixed(2)} s wall, ${sum('cpuSeconds').toFixed(2)} s CPU for ${REVISIONS.length} revisions\n`,
    );
  }
  const medianOf = (pick) => median(results.map(pick));
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    // Other work on a shared machine shows up here; CPU seconds are the figure least affected by it.
    loadAverageAtStart,
    loadAverageAtEnd: loadavg(),
    command: 'node bin/mcp-gen.js types --spec <revision> -o <dir>',
    runs,
    targetSeconds: TARGET_SECONDS,
    median: {
      wallSeconds: medianOf((r) => r.wallSeconds),
      cpuSeconds: medianOf((r) => r.cpuSeconds),
      perRevision: Object.fromEntries(
        REVISIONS.map((rev) => [
          rev,
          {
            wallSeconds: medianOf((r) => r.perRevision[rev].wallSeconds),
            cpuSeconds: medianOf((r) => r.perRevision[rev].cpuSeconds),
          },
        ]),
      ),
    },
    outputSize: output,
    results,
  };
  report.ratios = [];
  for (const [key, what] of [['wallSeconds', 'wall'], ['cpuSeconds', 'CPU']]) {
    const ours = results.map((r) => r[key]);
    report.ratios.push(ratioRow({ metric: `types for all six revisions, ${what}`, unit: 's', reference: 'six node -e 0', ours, theirs: results.map((r) => r.floor[key]) }));
    if (beforeCli !== undefined) report.ratios.push(ratioRow({ metric: `types for all six revisions, ${what}`, unit: 's', reference: `the CLI of ${flags.before}`, ours, theirs: results.map((r) => r.before[key]) }));
  }
  writeReport(outFile, report);

  const lines = [
    '| revision | wall s | CPU s | files | bytes |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const rev of REVISIONS) {
    const { wallSeconds, cpuSeconds } = report.median.perRevision[rev];
    lines.push(
      `| ${rev} | ${wallSeconds.toFixed(2)} | ${cpuSeconds.toFixed(2)} | ${output[rev].files} | ${output[rev].bytes} |`,
    );
  }
  const { wallSeconds, cpuSeconds } = report.median;
  lines.push(`| **all six** | **${wallSeconds.toFixed(2)}** | **${cpuSeconds.toFixed(2)}** | | |`);
  lines.push(
    '',
    `Target < ${TARGET_SECONDS} s for all six: ${wallSeconds < TARGET_SECONDS ? 'met' : 'MISSED'} (wall), ${cpuSeconds < TARGET_SECONDS ? 'met' : 'MISSED'} (CPU).`,
  );
  process.stdout.write(lines.join('\n') + '\n');
  printRatios(report.ratios, 'Ratios paired per run');
  process.stderr.write(`JSON written to ${outFile}\n`);
}

const scratch = mkdtempSync(path.join(tmpdir(), 'mcp-gen-bench-generate-'));
try {
  if (flags.profile !== undefined) profileOne(flags.profile, scratch);
  else benchmark(scratch);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
