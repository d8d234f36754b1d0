#!/usr/bin/env node
// Cold start of the bundled server (issue 29 item 3): spawn → the `initialize` answer over stdio, for
// the bare floor (bench/floor/server.mjs), the generated bench server built by tsc (build/main.js),
// and the same server bundled by its `npm run bundle` recipe (generated/bundle.mjs): the default
// (dist/server.mjs and dist/chunks/start.mjs at start, the other chunks on first use) and
// `--single-file`. In every round each server
// is spawned `spawns` times, in rotating order, so a burst of other work on a shared machine lands
// on all of them; ratios are paired per turn of spawns, and each round prints its medians.
//
// `--scale` adds the second figure: spawn → the first `tools/list` answer of the weather example and
// of a 1,000-tool server (bench/scale/make-manifest.mjs), both bundled the same way.
//
//   node bench/cold-start.mjs [--rounds N] [--spawns N] [--scale] [--out file.json]
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { StdioPeer } from './lib/client.mjs';
import { buildOurs, generateOutputs } from './lib/servers.mjs';
import { median } from './lib/stats.mjs';
import { repoRoot } from './lib/paths.mjs';
import { machine, writeReport } from './lib/report.mjs';
import { manifestText } from './scale/make-manifest.mjs';
import { printRatios, ratioRow } from './lib/ratios.mjs';

const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    spawns: { type: 'string', default: '10' },
    scale: { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(repoRoot, 'bench', 'results', 'cold-start.json') },
  },
});
const rounds = Number(flags.rounds);
const spawns = Number(flags.spawns);
for (const [name, value] of [['rounds', rounds], ['spawns', spawns]]) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
}
const work = path.join(repoRoot, 'bench', '.work', 'cold-start');
const node = process.execPath;
const log = (line) => process.stderr.write(`${line}\n`);

/**
 * Runs a generated project's bundle recipe both ways; returns the entry file of each, copied out of
 * the project's dist/ (which the recipe empties on every run).
 */
function bundleBothWays(project, label) {
  const entries = {};
  for (const [kind, args] of [['bundle', []], ['single', ['--single-file']]]) {
    execFileSync(node, ['generated/bundle.mjs', ...args], { cwd: project, stdio: ['ignore', 'inherit', 'inherit'] });
    const target = path.join(work, `${label}-${kind}`);
    rmSync(target, { recursive: true, force: true });
    renameSync(path.join(project, 'dist'), target);
    entries[kind] = path.join(target, 'server.mjs');
  }
  return entries;
}

/**
 * CPU time of every thread of a live process so far, in ms, from /proc/<pid>/task/<tid>/schedstat
 * (nanoseconds; utime and stime in /proc/<pid>/stat count 10 ms ticks, too coarse for a start).
 */
function cpuMs(pid) {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  }
  return ns / 1e6;
}

/**
 * Spawn → the answer to `initialize` (and, with `list`, to the first `tools/list`): wall ms, and the
 * server's CPU ms until then (user + system, all threads: the figure a busy machine moves least).
 */
async function startMs(server, list) {
  const started = performance.now();
  const peer = new StdioPeer({ command: node, args: [server], cwd: repoRoot });
  try {
    await peer.initialize();
    if (list) {
      const listed = await peer.request('tools/list', {});
      if (!Array.isArray(listed.tools) || listed.tools.length === 0) throw new Error(`${server}: tools/list answered no tools`);
    }
    const wall = performance.now() - started;
    return { wall, cpu: cpuMs(peer.pid) };
  } finally {
    await peer.close();
  }
}

/** Rounds of rotating spawns; per round the median of each server and of each paired ratio to `base`. */
async function measure(servers, base, list) {
  const names = Object.keys(servers);
  for (const name of names) await startMs(servers[name], list); // one unmeasured start each: files into the page cache
  const table = [];
  for (let round = 0; round < rounds; round++) {
    const times = Object.fromEntries(names.map((name) => [name, []]));
    for (let turn = 0; turn < spawns; turn++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(round + turn + k) % names.length];
        times[name].push(await startMs(servers[name], list));
      }
    }
    const row = { round: round + 1, load: loadavg()[0], ms: {}, cpuMs: {}, ratios: {}, cpuRatios: {} };
    for (const name of names) {
      row.ms[name] = median(times[name].map((t) => t.wall));
      row.cpuMs[name] = median(times[name].map((t) => t.cpu));
      if (name === base) continue;
      row.ratios[`${name}/${base}`] = median(times[name].map((t, i) => t.wall / times[base][i].wall));
      row.cpuRatios[`${name}/${base}`] = row.cpuMs[name] / row.cpuMs[base];
    }
    table.push(row);
    const show = (ratios) => Object.entries(ratios).map(([k, v]) => `${k} ${v.toFixed(2)}x`).join(', ');
    log(`round ${row.round}/${rounds} (load ${row.load.toFixed(1)}): ${names.map((n) => `${n} ${row.ms[n].toFixed(1)} ms (${row.cpuMs[n].toFixed(0)} CPU ms)`).join(', ')}; wall ${show(row.ratios)}; CPU ${show(row.cpuRatios)}`);
  }
  const summary = {};
  const cpuSummary = {};
  for (const key of Object.keys(table[0].ratios)) {
    summary[key] = median(table.map((row) => row.ratios[key]));
    cpuSummary[key] = median(table.map((row) => row.cpuRatios[key]));
  }
  return { rounds: table, medianRatios: summary, medianCpuRatios: cpuSummary };
}

async function main() {
  mkdirSync(work, { recursive: true });
  buildOurs();
  const benchServer = path.join(repoRoot, 'bench', 'server');
  const bench = bundleBothWays(benchServer, 'bench');
  const report = { date: new Date().toISOString(), machine: machine(), loadAverageAtStart: loadavg(), rounds, spawns };
  log('spawn → initialize answer');
  report.initialize = await measure(
    { floor: path.join(repoRoot, 'bench', 'floor', 'server.mjs'), tsc: path.join(benchServer, 'build', 'main.js'), bundle: bench.bundle, single: bench.single },
    'floor',
    false,
  );
  if (flags.scale) {
    generateOutputs();
    const scaleProject = path.join(work, 'scale-server');
    const manifest = path.join(work, 'scale-manifest.json');
    writeFileSync(manifest, manifestText({ tools: 1000 }));
    execFileSync(node, [path.join(repoRoot, 'bin', 'mcp-gen.js'), 'server', manifest, '-o', scaleProject, '--quiet', '--no-version-banner'], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
    const weatherProject = path.join(work, 'weather-server');
    rmSync(weatherProject, { recursive: true, force: true });
    cpSync(path.join(repoRoot, 'examples', 'weather', 'server'), weatherProject, { recursive: true, filter: (source) => !/[/\\](build|dist|node_modules)$/.test(source) });
    const weather = bundleBothWays(weatherProject, 'weather');
    const scale = bundleBothWays(scaleProject, 'scale');
    log('spawn → first tools/list answer: weather and 1,000 tools');
    report.toolsList = await measure({ weather: weather.bundle, scale: scale.bundle, weatherSingle: weather.single, scaleSingle: scale.single }, 'weather', true);
    report.toolsList.medianRatios['scaleSingle/weatherSingle'] = median(report.toolsList.rounds.map((row) => row.ms.scaleSingle / row.ms.weatherSingle));
  }
  report.loadAverageAtEnd = loadavg();
  report.ratios = startRatios(report);
  writeReport(flags.out, report);
  const lines = ['', 'median of the per-round ratios (target: bundle/floor ≤ 1.1; 1,000 tools ≤ 1.5x weather):'];
  for (const section of ['initialize', 'toolsList']) {
    if (report[section] === undefined) continue;
    for (const [key, value] of Object.entries(report[section].medianRatios)) {
      const cpu = report[section].medianCpuRatios[key];
      lines.push(`  ${section} ${key}: wall ${value.toFixed(2)}x${cpu === undefined ? '' : `, CPU ${cpu.toFixed(2)}x`}`);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  printRatios(report.ratios, 'Ratios paired per round (each round the median of its spawns)');
  process.stdout.write(`JSON written to ${flags.out}\n`);
}

/** Each server against the floor (the weather bundle for tools/list), wall and CPU; issue 42's targets. */
function startRatios(report) {
  const rows = [];
  const add = (section, name, base, label, target) => {
    const table = report[section]?.rounds;
    if (table === undefined) return;
    for (const [key, what] of [['ms', 'wall'], ['cpuMs', 'CPU']]) {
      rows.push(ratioRow({ metric: `${label}, ${what}`, unit: 'ms', reference: base, ours: table.map((r) => r[key][name]), theirs: table.map((r) => r[key][base]), ...(target ? { target: { ratio: target } } : {}) }));
    }
  };
  add('initialize', 'bundle', 'floor', 'cold start, bundle (spawn → initialize)', 1.1);
  add('initialize', 'single', 'floor', 'cold start, single-file bundle', undefined);
  add('initialize', 'tsc', 'floor', 'cold start, tsc build', undefined);
  add('toolsList', 'scale', 'weather', 'spawn → first tools/list, 1,000 tools (bundles)', 1.5);
  return rows;
}

await main();
