#!/usr/bin/env node
// Generation-time benchmark: how long the CLI takes to generate the protocol bindings (types and
// validators, formatted) of all six published revisions, as a user runs it:
// `mcp-gen types --spec <rev> -o <dir>` once per revision. The figure is the median over runs of the
// total for the six. Needs the compiled CLI (`npm run build`).
//
//   node bench/generate.mjs [--runs N] [--out file.json]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir, cpus, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { median } from './lib/stats.mjs';
import { repoRoot } from './lib/paths.mjs';

const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', 'draft'];
const TARGET_SECONDS = 20;

const { values: flags } = parseArgs({
  options: { runs: { type: 'string', default: process.env.MCP_BENCH_GENERATE_RUNS ?? '3' }, out: { type: 'string' } },
});
const runs = Number(flags.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${flags.runs}`);
const outFile = flags.out ?? path.join(repoRoot, 'bench', 'results', 'generate.json');

const cli = path.join(repoRoot, 'bin', 'mcp-gen.js');
if (!existsSync(path.join(repoRoot, 'dist', 'cli', 'main.js'))) {
  throw new Error('the CLI is not compiled: run `npm run build` first');
}

function folderBytes(dir) {
  let total = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    total += statSync(path.join(entry.parentPath ?? entry.path, entry.name)).size;
    files++;
  }
  return { bytes: total, files };
}

// The official schemas come from the shared folder, never from the network.
const specEnv = { ...process.env, MCP_SPEC_DIR: process.env.MCP_SPEC_DIR ?? path.join(repoRoot, '..', 'shared', 'mcp-spec') };

const scratch = mkdtempSync(path.join(tmpdir(), 'mcp-gen-bench-generate-'));
try {
  /** @type {{ totalSeconds: number, perRevisionSeconds: Record<string, number> }[]} */
  const results = [];
  const output = {};
  for (let run = 0; run < runs; run++) {
    const perRevisionSeconds = {};
    let totalSeconds = 0;
    for (const revision of REVISIONS) {
      const outDir = path.join(scratch, `run-${run}`, revision);
      const started = performance.now();
      execFileSync(process.execPath, [cli, 'types', '--spec', revision, '-o', outDir], {
        cwd: repoRoot,
        env: specEnv,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const seconds = (performance.now() - started) / 1000;
      perRevisionSeconds[revision] = seconds;
      totalSeconds += seconds;
      if (run === 0) output[revision] = folderBytes(outDir);
    }
    results.push({ totalSeconds, perRevisionSeconds });
    process.stderr.write(`run ${run + 1}/${runs}: ${totalSeconds.toFixed(2)} s for ${REVISIONS.length} revisions\n`);
  }
  const medianTotal = median(results.map((r) => r.totalSeconds));
  const report = {
    date: new Date().toISOString(),
    machine: { nproc: cpus().length, cpu: cpus()[0]?.model, ramGiB: totalmem() / 2 ** 30, node: process.version },
    command: 'node bin/mcp-gen.js types --spec <revision> -o <dir>',
    runs,
    medianTotalSeconds: medianTotal,
    targetSeconds: TARGET_SECONDS,
    medianPerRevisionSeconds: Object.fromEntries(REVISIONS.map((rev) => [rev, median(results.map((r) => r.perRevisionSeconds[rev]))])),
    outputSize: output,
    results,
  };
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(outFile, JSON.stringify(report, null, 2) + '\n');
  const lines = ['| revision | median s | files | bytes |', '| --- | --- | --- | --- |'];
  for (const rev of REVISIONS) {
    lines.push(`| ${rev} | ${report.medianPerRevisionSeconds[rev].toFixed(2)} | ${output[rev].files} | ${output[rev].bytes} |`);
  }
  lines.push(`| **all six** | **${medianTotal.toFixed(2)}** (target < ${TARGET_SECONDS} s: ${medianTotal < TARGET_SECONDS ? 'met' : 'MISSED'}) | | |`);
  process.stdout.write(lines.join('\n') + '\n');
  process.stderr.write(`JSON written to ${outFile}\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
