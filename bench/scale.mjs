#!/usr/bin/env node
// Codegen at scale (issue 16 item 5): a 1,000-tool manifest (bench/scale/make-manifest.mjs, seeded,
// never committed) generated as a user runs it, each step a fresh CLI process:
//   1. cold server:   `mcp-gen server <manifest> -o <dir>` into an empty folder;
//   2. cold client:   `mcp-gen client <manifest> -o <dir>` into an empty folder;
//   3. warm server:   one tool's schemas changed in the manifest (the same file, edited in place),
//                     `mcp-gen server` again into the folder of step 1
//                     (what is unchanged is reused through the output folder's unit cache);
//   4. warm client:   the same for the client;
//   5. no-op server:  `mcp-gen server` once more, nothing changed;
//   6. no-op client:  the same for the client;
//   7. start time:    the generated 1,000-tool server, built with tsc, from spawn to its first
//                     `tools/list` answer over stdio, against the weather example's (`--start`).
// Wall seconds, CPU seconds (user + system of the CLI process: the stable figure on a shared
// machine) and peak RSS (GNU time's %M) per step, median of the runs. Needs `npm run build`.
// The floor, run under GNU time in every round beside the steps: `node -e 0` (issue 42: a warm and a
// no-op regeneration within 4x of it). Every step prints its ratio to the floor, paired per round.
// The manifest is YAML, as users write it (`--format json` for the JSON one). Each run has a cache
// folder of its own (MCP_GEN_CACHE_DIR), so its cold steps find no shared pack of an earlier run.
// `--before <checkout>` runs that checkout's CLI (a worktree of an older commit, built) through the
// same steps in every run, taking turns with ours, and prints ours over it step by step.
//
//   node bench/scale.mjs [--runs N] [--tools N] [--format yaml|json] [--before <checkout>] [--start [--start-samples N]] [--out file.json]
//   node bench/scale.mjs --profile server|client|warm-server|warm-client [--top N]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, cpSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { median } from './lib/stats.mjs';
import { repoRoot } from './lib/paths.mjs';
import { formatProfile } from './lib/cpuprofile.mjs';
import { machine, writeReport } from './lib/report.mjs';
import { StdioPeer } from './lib/client.mjs';
import { makeManifest, manifestText } from './scale/make-manifest.mjs';
import { printRatios, ratioRow } from './lib/ratios.mjs';
import { dump as yamlDump } from 'js-yaml';

const COLD_TARGET_SECONDS = 10;
const WARM_TARGET_SECONDS = 1;
const START_TARGET_RATIO = 1.5;
/** Issue 42: a regeneration after one change, and a no-op, within 4x of `node -e 0`. */
const FLOOR_TARGET_RATIO = 4;
/** The tool whose schemas change between the cold and the warm run. */
const CHANGED_TOOL = 500;

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: process.env.MCP_BENCH_SCALE_RUNS ?? '5' },
    tools: { type: 'string', default: '1000' },
    format: { type: 'string', default: 'yaml' },
    before: { type: 'string' },
    start: { type: 'boolean', default: false },
    out: { type: 'string' },
    profile: { type: 'string' },
    top: { type: 'string', default: '30' },
    'start-samples': { type: 'string', default: '9' },
  },
});
const runs = Number(flags.runs);
const startSamples = Number(flags['start-samples']);
const tools = Number(flags.tools);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${flags.runs}`);
if (!Number.isInteger(tools) || tools <= CHANGED_TOOL) throw new Error(`--tools must be an integer above ${CHANGED_TOOL}, got ${flags.tools}`);
if (flags.format !== 'yaml' && flags.format !== 'json') throw new Error(`--format must be yaml or json, got ${flags.format}`);
const outFile = flags.out ?? path.join(repoRoot, 'bench', 'results', 'scale.json');
const cli = path.join(repoRoot, 'bin', 'mcp-gen.js');
const beforeCli = flags.before === undefined ? undefined : path.join(path.resolve(flags.before), 'bin', 'mcp-gen.js');
if (beforeCli !== undefined && !existsSync(beforeCli)) throw new Error(`--before: no ${beforeCli}`);
if (!existsSync(path.join(repoRoot, 'dist', 'cli', 'main.js'))) throw new Error('the CLI is not compiled: run `npm run build` first');
const GNU_TIME = '/usr/bin/time';
if (!existsSync(GNU_TIME)) throw new Error(`${GNU_TIME} (GNU time) is needed for peak RSS`);

/** The manifest's file name and text in the chosen format. */
function manifestFile(scratch) {
  return path.join(scratch, `manifest.${flags.format}`);
}
function manifestSource(options) {
  return flags.format === 'json' ? manifestText(options) : yamlDump(makeManifest(options), { lineWidth: -1, noRefs: true });
}

/**
 * Runs a CLI (ours unless `withCli`) once under GNU time: wall seconds, CPU seconds and peak RSS of
 * that process. `cacheDir` is its MCP_GEN_CACHE_DIR: one per run, so a cold step finds no shared pack
 * of an earlier run (or of the user's own runs in ~/.cache/mcp-gen).
 */
function generate(command, manifest, outDir, cacheDir, { nodeFlags = [], withCli = cli } = {}) {
  return timed([...nodeFlags, withCli, command, manifest, '-o', outDir, '--no-version-banner'], `mcp-gen ${command}`, { ...process.env, MCP_GEN_CACHE_DIR: cacheDir });
}

/** The floor: `node -e 0`, timed the same way. */
function floor() {
  return timed(['-e', '0'], 'node -e 0');
}

function timed(nodeArgs, what, env = process.env) {
  const started = performance.now();
  const child = spawnSync(GNU_TIME, ['-f', 'MCPGEN-TIME %U %S %M', process.execPath, ...nodeArgs], {
    cwd: repoRoot,
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallSeconds = (performance.now() - started) / 1000;
  const line = /MCPGEN-TIME (\S+) (\S+) (\d+)/.exec(child.stderr ?? '');
  if (child.status !== 0 || line === null) throw new Error(`${what} failed (${child.status}): ${child.stderr}`);
  return { wallSeconds, cpuSeconds: Number(line[1]) + Number(line[2]), peakRssMiB: Number(line[3]) / 1024 };
}

/** Spawn to the first `tools/list` answer, over stdio. */
async function startSeconds(serverDir) {
  const started = performance.now();
  const peer = new StdioPeer({ command: process.execPath, args: [path.join(serverDir, 'build', 'main.js')], cwd: serverDir });
  try {
    await peer.initialize();
    const listed = await peer.request('tools/list', {});
    if (!Array.isArray(listed.tools) || listed.tools.length === 0) throw new Error('tools/list answered no tools');
    return { seconds: (performance.now() - started) / 1000, tools: listed.tools.length };
  } finally {
    await peer.close();
  }
}

/**
 * Emits the server's JavaScript; type checking is no part of start time (and takes minutes at this
 * size). The project's tsconfig wants @types/node: the repository's node_modules stands in.
 */
function buildServer(dir) {
  if (!existsSync(path.join(dir, 'node_modules'))) symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  execFileSync(process.execPath, [path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir, '--noCheck'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
}

function profileOne(step, scratch) {
  const manifest = manifestFile(scratch);
  writeFileSync(manifest, manifestSource({ tools }));
  const command = step === 'client' || step === 'warm-client' ? 'client' : 'server';
  const outDir = path.join(scratch, 'out');
  const cacheDir = path.join(scratch, 'cache');
  if (step.startsWith('warm-')) {
    generate(command, manifest, outDir, cacheDir);
    writeFileSync(manifest, manifestSource({ tools, changed: { [CHANGED_TOOL]: 1 } }));
  }
  const profileDir = path.join(scratch, 'profile');
  generate(command, manifest, outDir, cacheDir, { nodeFlags: ['--cpu-prof', '--cpu-prof-dir', profileDir] });
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  const profile = JSON.parse(readFileSync(path.join(profileDir, file), 'utf8'));
  process.stdout.write(formatProfile(profile, { top: Number(flags.top), title: `mcp-gen ${step} (${tools} tools)` }));
}

const STEPS = ['cold server', 'cold client', 'warm server', 'warm client', 'no-op server', 'no-op client'];
const FLOOR = 'node -e 0';

async function benchmark(scratch) {
  const loadAverageAtStart = loadavg();
  // One manifest file, edited in place between the cold and the warm steps, as a user edits it: a
  // manifest under another name would be another regenerate command in every file's banner.
  const manifest = manifestFile(scratch);
  const originalText = manifestSource({ tools });
  const changedText = manifestSource({ tools, changed: { [CHANGED_TOOL]: 1 } });
  /** The six steps of one run with one CLI, each output folder and cache folder under `dir`. */
  const stepsOf = (dir, withCli) => {
    const serverDir = path.join(dir, 'server');
    const clientDir = path.join(dir, 'client');
    const cacheDir = path.join(dir, 'cache');
    const run = (command, outDir) => generate(command, manifest, outDir, cacheDir, { withCli });
    const steps = {};
    writeFileSync(manifest, originalText);
    steps['cold server'] = run('server', serverDir);
    steps['cold client'] = run('client', clientDir);
    writeFileSync(manifest, changedText);
    steps['warm server'] = run('server', serverDir);
    steps['warm client'] = run('client', clientDir);
    steps['no-op server'] = run('server', serverDir);
    steps['no-op client'] = run('client', clientDir);
    return steps;
  };
  const results = [];
  const beforeResults = [];
  for (let run = 0; run < runs; run++) {
    // With --before, the two CLIs take turns, the order alternating per run.
    const sides = [['ours', cli], ...(beforeCli ? [['before', beforeCli]] : [])];
    const measured = {};
    for (const [side, withCli] of run % 2 === 0 ? sides : sides.reverse()) measured[side] = stepsOf(path.join(scratch, `run-${run}`, side), withCli);
    const steps = measured.ours;
    steps[FLOOR] = floor();
    results.push(steps);
    if (beforeCli) beforeResults.push(measured.before);
    process.stderr.write(`run ${run + 1}/${runs}: ${[...STEPS, FLOOR].map((s) => `${s} ${steps[s].wallSeconds.toFixed(2)} s (${steps[s].cpuSeconds.toFixed(2)} CPU s)`).join(', ')}\n`);
    if (run < runs - 1) rmSync(path.join(scratch, `run-${run}`), { recursive: true, force: true });
  }
  const medianOf = (step, key) => median(results.map((r) => r[step][key]));
  const table = Object.fromEntries(
    [...STEPS, FLOOR].map((step) => [step, { wallSeconds: medianOf(step, 'wallSeconds'), cpuSeconds: medianOf(step, 'cpuSeconds'), peakRssMiB: medianOf(step, 'peakRssMiB') }]),
  );

  let start;
  if (flags.start) {
    const serverDir = path.join(scratch, `run-${runs - 1}`, 'ours', 'server');
    const weatherDir = path.join(scratch, 'weather');
    cpSync(path.join(repoRoot, 'examples', 'weather', 'server'), weatherDir, { recursive: true, filter: (p) => !p.includes(`${path.sep}build`) });
    buildServer(serverDir);
    buildServer(weatherDir);
    const scale = [];
    const weather = [];
    // One start of each first, unmeasured: the first start after a build reads every module from disk.
    await startSeconds(weatherDir);
    await startSeconds(serverDir);
    for (let sample = 0; sample < startSamples; sample++) {
      // Alternate, so that a busy moment on the machine hits both alike.
      weather.push((await startSeconds(weatherDir)).seconds);
      scale.push((await startSeconds(serverDir)).seconds);
    }
    start = { weatherSeconds: median(weather), scaleSeconds: median(scale), ratio: median(scale) / median(weather), weather, scale };
  }

  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    loadAverageAtStart,
    loadAverageAtEnd: loadavg(),
    tools,
    changedTool: CHANGED_TOOL,
    runs,
    format: flags.format,
    targets: { coldSeconds: COLD_TARGET_SECONDS, warmSeconds: WARM_TARGET_SECONDS, startRatio: START_TARGET_RATIO, floorRatio: FLOOR_TARGET_RATIO },
    median: table,
    ...(start ? { start } : {}),
    ratios: [...floorRatios(results, start), ...beforeRatios(results, beforeResults)],
    ...(beforeCli ? { before: flags.before, beforeResults } : {}),
    results,
  };
  writeReport(outFile, report);

  const verdict = (value, target) => (value < target ? 'met' : 'MISSED');
  const lines = ['| step | wall s | CPU s | peak RSS MiB | target |', '| --- | --- | --- | --- | --- |'];
  for (const step of STEPS) {
    const { wallSeconds, cpuSeconds, peakRssMiB } = table[step];
    const target = step.startsWith('cold') ? COLD_TARGET_SECONDS : WARM_TARGET_SECONDS;
    lines.push(`| ${step} | ${wallSeconds.toFixed(2)} | ${cpuSeconds.toFixed(2)} | ${peakRssMiB.toFixed(0)} | < ${target} s: ${verdict(wallSeconds, target)} (wall), ${verdict(cpuSeconds, target)} (CPU) |`);
  }
  const sum = (key) => table['cold server'][key] + table['cold client'][key];
  const f = table[FLOOR];
  lines.push(`| ${FLOOR} (the floor) | ${f.wallSeconds.toFixed(2)} | ${f.cpuSeconds.toFixed(2)} | ${f.peakRssMiB.toFixed(0)} | |`);
  lines.push(`| cold server + client | ${sum('wallSeconds').toFixed(2)} | ${sum('cpuSeconds').toFixed(2)} | | |`);
  if (start) {
    lines.push('', `Start to first tools/list: weather ${(start.weatherSeconds * 1000).toFixed(0)} ms, ${tools} tools ${(start.scaleSeconds * 1000).toFixed(0)} ms: ${start.ratio.toFixed(2)}x (target < ${START_TARGET_RATIO}x: ${verdict(start.ratio, START_TARGET_RATIO)}).`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  printRatios(report.ratios, `Ratios to \`${FLOOR}\`${beforeCli ? ' and to the --before CLI' : ''} run in the same rounds (${tools} tools, ${flags.format} manifest)`);
  process.stderr.write(`JSON written to ${outFile}\n`);
}

/**
 * Every step against `node -e 0`, wall and CPU, paired per run; issue 42's 4x target on the warm
 * and no-op steps (cold steps have no target against the floor). Start time against the weather
 * example's, where measured.
 */
function floorRatios(results, start) {
  const rows = [];
  for (const step of STEPS) {
    const target = step.startsWith('cold') ? undefined : { ratio: FLOOR_TARGET_RATIO };
    for (const [key, what] of [['wallSeconds', 'wall'], ['cpuSeconds', 'CPU']]) {
      rows.push(ratioRow({ metric: `${tools} tools, ${step}, ${what}`, unit: 's', reference: FLOOR, ours: results.map((r) => r[step][key]), theirs: results.map((r) => r[FLOOR][key]), target }));
    }
  }
  if (start) rows.push(ratioRow({ metric: `${tools} tools, start to first tools/list`, unit: 's', reference: 'weather example', ours: start.scale, theirs: start.weather, target: { ratio: START_TARGET_RATIO } }));
  return rows;
}

/** With --before: every step of ours against the same step of the other checkout's CLI, run in turn. */
function beforeRatios(results, beforeResults) {
  if (beforeResults.length === 0) return [];
  return STEPS.flatMap((step) =>
    [['wallSeconds', 'wall'], ['cpuSeconds', 'CPU']].map(([key, what]) =>
      ratioRow({ metric: `${tools} tools, ${step}, ${what}`, unit: 's', reference: `the CLI of ${flags.before}`, ours: results.map((r) => r[step][key]), theirs: beforeResults.map((r) => r[step][key]) }),
    ),
  );
}

const scratch = mkdtempSync(path.join(tmpdir(), 'mcp-gen-bench-scale-'));
try {
  if (flags.profile !== undefined) profileOne(flags.profile, scratch);
  else await benchmark(scratch);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
