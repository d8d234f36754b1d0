#!/usr/bin/env node
// The benches that feed the one table of ratios (bench/summary.mjs), one after another with modest
// rounds, each writing its JSON report to bench/results/; then the table, printed and written to
// bench/results/summary.md. Some 12 to 15 minutes on a quiet 2-core machine at the default 3 rounds
// (estimated; `--rounds 1` took 30 minutes on a shared machine at load 19–28, 7.7 CPU minutes).
// Needs `npm run build` (`npm run bench:all` builds first).
//
//   node bench/all.mjs [--rounds N] [--only a,b] [--skip a,b] [--dir bench/results]
//
// --rounds N   rounds of every bench (runs of scale and openapi); 5 gives the benches' own defaults
//              for the runtime ones, more narrows the ranges;
// --only/--skip  bench names below (e.g. `--skip openapi`: it installs its peer from npm once).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { repoRoot } from './lib/paths.mjs';
import { summarize } from './summary.mjs';

const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    only: { type: 'string' },
    skip: { type: 'string', default: '' },
    dir: { type: 'string', default: path.join(repoRoot, 'bench', 'results') },
  },
});
const rounds = Number(flags.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a positive integer, got ${flags.rounds}`);
const n = String(rounds);

/** Each bench: its script and arguments, the report it writes in `dir` named after it. */
const BENCHES = {
  openapi: ['openapi.mjs', '--runs', n, '--start-samples', '5', '--calls', '300'],
  scale: ['scale.mjs', '--runs', n],
  servers: ['run.mjs', '--rounds', n, '--servers', 'floor,sdk,ours,bundle'],
  http: ['http.mjs', '--rounds', n, '--mem-calls', '20000'],
  clients: ['client.mjs', '--rounds', n],
  'client-http': ['client-http.mjs', '--rounds', n],
  'cold-start': ['cold-start.mjs', '--rounds', n, '--spawns', '5'],
};

const names = Object.keys(BENCHES);
const only = flags.only === undefined ? names : flags.only.split(',');
const skip = flags.skip.split(',').filter((name) => name !== '');
for (const name of [...only, ...skip]) if (!names.includes(name)) throw new Error(`unknown bench ${name}; known: ${names.join(', ')}`);
const chosen = names.filter((name) => only.includes(name) && !skip.includes(name));

mkdirSync(flags.dir, { recursive: true });
const started = performance.now();
const failed = [];
for (const name of chosen) {
  const [script, ...args] = BENCHES[name];
  const out = path.join(flags.dir, `${name}.json`);
  process.stderr.write(`\n== ${name}: node bench/${script} ${args.join(' ')} (load ${loadavg().map((l) => l.toFixed(2)).join(' ')})\n`);
  const child = spawnSync(process.execPath, [path.join(repoRoot, 'bench', script), ...args, '--out', out], { cwd: repoRoot, stdio: 'inherit' });
  if (child.status !== 0) failed.push(name);
}
process.stderr.write(`\n${chosen.length} benches in ${((performance.now() - started) / 60000).toFixed(1)} minutes\n\n`);
const text = summarize(flags.dir);
writeFileSync(path.join(flags.dir, 'summary.md'), text);
process.stdout.write(text);
if (failed.length > 0) {
  process.stderr.write(`failed: ${failed.join(', ')} (their reports in ${flags.dir} are older ones, if any)\n`);
  process.exitCode = 1;
}
