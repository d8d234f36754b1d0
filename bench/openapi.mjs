#!/usr/bin/env node
// mcp-gen against openapi-mcp-generator 4.0.1 on GitHub's REST description (issue 31), in the same run:
//   1. generate:    ours `mcp-gen import openapi` to a YAML manifest (as the README shows, issue 42)
//                   then `mcp-gen server` (and `mcp-gen client`);
//                   theirs `openapi-mcp-generator --input … --output …`. Each a fresh process under
//                   GNU time: wall seconds, CPU seconds (user + system) and peak RSS, median of --runs.
//                   Each round has a fresh MCP_GEN_CACHE_DIR, so the server runs cold; then a client
//                   in a fresh folder after it (sharing the manifest's pack of cached results with
//                   the server: docs/caching.md), and a client cold (a fresh folder, an empty cache
//                   folder of its own). Every output folder is fresh.
//   2. cold start:  each server built to JavaScript (`tsc --noCheck`: their project does not type-check,
//                   TS2590), spawned over stdio, from spawn to the first `tools/list` answer (ours
//                   pages it, 100 tools a page; theirs sends every tool at once), median of --start-samples.
//   3. per call:    `repos_get` called --calls times against a local upstream on 127.0.0.1 answering a
//                   valid repository (a sample of the tool's outputSchema); the server process's CPU
//                   (utime + stime from /proc) per call, after a warm-up.
// Each figure prints its ratio to theirs with the range over rounds, with issue 42's targets: import +
// server + client within 3x of their generation (wall and CPU), the server's output ≤ 10 MB (apparent
// size of every file, dotfiles included: bench/lib/folder-size.mjs; theirs beside it), the
// build within 2x, peak generation RSS within 2x. The build runs --runs times too, alternating.
// The description comes from @octokit/openapi (scripts/openapi-corpora.mjs), the generator and its
// project's dependencies from the npm registry, installed once into a cache
// ($MCP_GEN_BENCH_CACHE, else ~/.cache/mcp-gen/bench-openapi). Needs `npm run build`.
//
//   node bench/openapi.mjs [--runs N] [--start-samples N] [--calls N] [--out file.json]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { homedir, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { StdioPeer } from './lib/client.mjs';
import { repoRoot } from './lib/paths.mjs';
import { cpuTimes } from './lib/proc.mjs';
import { machine, writeReport } from './lib/report.mjs';
import { median } from './lib/stats.mjs';
import { printRatios, ratioRow } from './lib/ratios.mjs';
import { folderSize } from './lib/folder-size.mjs';
import { corpusPath, installCorpora } from '../scripts/openapi-corpora.mjs';

const GENERATOR = { name: 'openapi-mcp-generator', version: '4.0.1' };
const GNU_TIME = '/usr/bin/time';
const cli = path.join(repoRoot, 'bin', 'mcp-gen.js');
const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'start-samples': { type: 'string', default: '5' },
    calls: { type: 'string', default: '300' },
    out: { type: 'string', default: path.join(repoRoot, 'bench', 'results', 'openapi.json') },
  },
});
const runs = Number(flags.runs);
const startSamples = Number(flags['start-samples']);
const calls = Number(flags.calls);
if (!existsSync(GNU_TIME)) throw new Error(`${GNU_TIME} (GNU time) is needed for peak RSS`);

const cache = process.env.MCP_GEN_BENCH_CACHE ?? path.join(homedir(), '.cache', 'mcp-gen', 'bench-openapi');

/** `npm install` of `dependencies` into `dir`, once per set of pins (a stamp file remembers it). */
function installOnce(dir, dependencies) {
  const wanted = JSON.stringify(dependencies);
  const stamp = path.join(dir, 'installed.json');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true, dependencies }, null, 2));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
  writeFileSync(stamp, wanted);
}

/** One process under GNU time: wall, CPU and peak RSS. */
function timed(command, args, env = process.env) {
  const started = performance.now();
  const child = spawnSync(GNU_TIME, ['-f', 'BENCH-TIME %U %S %M', command, ...args], { cwd: repoRoot, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const wallSeconds = (performance.now() - started) / 1000;
  const line = /BENCH-TIME (\S+) (\S+) (\d+)/.exec(child.stderr ?? '');
  if (child.status !== 0 || line === null) throw new Error(`${path.basename(args[0] ?? command)} failed (${child.status}): ${(child.stderr ?? '').slice(-2000)}`);
  const shared = /(\d+) from the shared pack/.exec(child.stderr ?? '');
  return { wallSeconds, cpuSeconds: Number(line[1]) + Number(line[2]), peakRssMiB: Number(line[3]) / 1024, ...(shared ? { sharedHits: Number(shared[1]) } : {}) };
}

/** The environment of a generation run: its own mcp-gen cache folder, the unit cache's counts printed. */
function cacheEnv(cacheDir) {
  return { ...process.env, MCP_GEN_CACHE_DIR: cacheDir, MCP_GEN_CACHE_STATS: '1', MCP_GEN_SHARED_CACHE: 'on' };
}

function medianOf(samples) {
  return Object.fromEntries(Object.keys(samples[0]).map((key) => [key, median(samples.map((s) => s[key]))]));
}

/** A local upstream answering every request with `answer.text` (JSON), counting requests. */
async function startUpstream() {
  const upstream = { origin: '', text: '{}', requests: 0, close: () => new Promise((resolve) => server.close(resolve)) };
  const server = createServer((req, res) => {
    upstream.requests += 1;
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(upstream.text));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.origin = `http://127.0.0.1:${server.address().port}`;
  return upstream;
}

/** Spawn to the first `tools/list` answer. */
async function startSeconds(main, cwd) {
  const started = performance.now();
  const peer = new StdioPeer({ command: process.execPath, args: [main], cwd });
  try {
    await peer.initialize();
    const listed = await peer.request('tools/list', {});
    const seconds = (performance.now() - started) / 1000;
    return { seconds, tools: listed.tools.length, bytes: Buffer.byteLength(JSON.stringify(listed)) };
  } finally {
    await peer.close();
  }
}

/** CPU seconds of the server process per `tools/call`, after `warmup` calls. */
async function cpuPerCall(main, cwd, name, args, check) {
  const peer = new StdioPeer({ command: process.execPath, args: [main], cwd });
  try {
    await peer.initialize();
    for (let i = 0; i < 20; i++) check(await peer.callTool(name, args));
    const before = cpuTimes(peer.pid);
    const started = performance.now();
    for (let i = 0; i < calls; i++) await peer.callTool(name, args);
    const after = cpuTimes(peer.pid);
    return { cpuMsPerCall: ((after.user + after.system - before.user - before.system) * 1000) / calls, wallMsPerCall: (performance.now() - started) / calls };
  } finally {
    await peer.close();
  }
}

async function main() {
  const loadAverageAtStart = loadavg();
  if (installCorpora() !== 0) throw new Error('could not install the OpenAPI corpora');
  const description = path.join(corpusPath('@octokit/openapi'), 'generated', 'api.github.com.json');
  const generatorDir = path.join(cache, 'generator');
  installOnce(generatorDir, { [GENERATOR.name]: GENERATOR.version });
  const theirCli = path.join(generatorDir, 'node_modules', GENERATOR.name, 'bin', `${GENERATOR.name}.js`);
  const work = mkdtempSync(path.join(tmpdir(), 'mcp-gen-bench-openapi-'));
  // The upstream first: both servers are pointed at it (ours through --base-url, theirs through API_BASE_URL).
  const { loadManifest } = await import('../dist/pipeline/manifest.js');
  const { toolExamples } = await import('../dist/samples/tool-examples.js');
  const upstream = await startUpstream();
  const origin = upstream.origin;
  try {

    const ours = path.join(work, 'ours');
    const theirs = path.join(work, 'theirs');
    const generate = { ours: { import: [], server: [], clientAfterServer: [], clientCold: [] }, theirs: [] };
    const output = { ours: [], theirs: [] };
    const caches = path.join(work, 'caches');
    for (let run = 0; run < runs; run++) {
      rmSync(ours, { recursive: true, force: true });
      rmSync(theirs, { recursive: true, force: true });
      rmSync(caches, { recursive: true, force: true });
      mkdirSync(ours, { recursive: true });
      const manifest = path.join(ours, 'manifest.yaml');
      generate.ours.import.push(timed(process.execPath, [cli, 'import', 'openapi', description, '-o', manifest, '--base-url', origin, '--bearer-env', 'GITHUB_TOKEN', '--header', 'User-Agent: mcp-gen-bench']));
      // A fresh cache folder per round: the server cold, the client after it sharing its pack.
      const shared = cacheEnv(path.join(caches, `round-${run}`));
      generate.ours.server.push(timed(process.execPath, [cli, 'server', manifest, '-o', path.join(ours, 'server'), '--no-version-banner'], shared));
      generate.ours.clientAfterServer.push(timed(process.execPath, [cli, 'client', manifest, '-o', path.join(ours, 'client'), '--no-version-banner'], shared));
      // The client alone: a fresh folder and a cache folder of its own, empty.
      generate.ours.clientCold.push(timed(process.execPath, [cli, 'client', manifest, '-o', path.join(ours, 'client-cold'), '--no-version-banner'], cacheEnv(path.join(caches, `round-${run}-client`))));
      generate.theirs.push(timed(process.execPath, [theirCli, '--input', description, '--output', theirs, '--base-url', origin]));
      output.ours.push(folderSize(path.join(ours, 'server')));
      output.theirs.push(folderSize(theirs));
    }

    // Their project's own dependencies, as `npm install` in it would fetch them (cached by their ranges).
    const theirPackage = JSON.parse(readFileSync(path.join(theirs, 'package.json'), 'utf8'));
    const depsDir = path.join(cache, 'generated-project');
    installOnce(depsDir, { ...theirPackage.dependencies, '@types/node': theirPackage.devDependencies['@types/node'] });
    symlinkSync(path.join(depsDir, 'node_modules'), path.join(theirs, 'node_modules'), 'dir');
    symlinkSync(path.join(repoRoot, 'node_modules'), path.join(ours, 'server', 'node_modules'), 'dir');
    // The build, --runs times, alternating; each from a clean output folder.
    const build = { ours: [], theirs: [] };
    for (let run = 0; run < runs; run++) {
      rmSync(path.join(ours, 'server', 'build'), { recursive: true, force: true });
      rmSync(path.join(theirs, 'build'), { recursive: true, force: true });
      const both = [
        ['ours', () => timed(process.execPath, [tsc, '-p', path.join(ours, 'server'), '--noCheck', '--outDir', path.join(ours, 'server', 'build')])],
        ['theirs', () => timed(process.execPath, [tsc, '-p', theirs, '--noCheck'])],
      ];
      for (const [side, buildOne] of run % 2 === 0 ? both : both.reverse()) build[side].push(buildOne());
    }
    const ourMain = path.join(ours, 'server', 'build', 'main.js');
    const theirMain = path.join(theirs, 'build', 'index.js');

    const start = { ours: [], theirs: [] };
    for (let i = 0; i < startSamples; i++) {
      start.ours.push(await startSeconds(ourMain, path.join(ours, 'server')));
      start.theirs.push(await startSeconds(theirMain, theirs));
    }

    // One answer both accept: a valid repository by the tool's outputSchema (our server checks it).
    const { model } = await loadManifest(path.join(ours, 'manifest.yaml'));
    const reposGet = model.tools.find((t) => t.name === 'repos_get');
    const repository = toolExamples(model)(reposGet, 'output');
    upstream.text = JSON.stringify(repository);
    process.env.GITHUB_TOKEN = 'bench-token';
    process.env.API_BASE_URL = origin;
    const args = { owner: 'octo-org', repo: 'hello-world' };
    const ok = (result) => {
      if (result.isError) throw new Error(`repos_get failed: ${JSON.stringify(result.content).slice(0, 500)}`);
    };
    const perCall = {
      ours: await cpuPerCall(ourMain, path.join(ours, 'server'), 'repos_get', args, ok),
      theirs: await cpuPerCall(theirMain, theirs, 'repos_get', args, ok),
    };

    const report = {
      benchmark: 'openapi',
      date: new Date().toISOString(),
      machine: machine(),
      description: { package: '@octokit/openapi', file: 'generated/api.github.com.json', tools: model.tools.length },
      competitor: GENERATOR,
      runs,
      generate: {
        ours: {
          import: medianOf(generate.ours.import),
          server: medianOf(generate.ours.server),
          clientCold: medianOf(generate.ours.clientCold),
          clientAfterServer: medianOf(generate.ours.clientAfterServer),
          // Each round's server + client after it, then the median of those sums.
          serverThenClientWallSeconds: median(generate.ours.server.map((s, i) => s.wallSeconds + generate.ours.clientAfterServer[i].wallSeconds)),
        },
        theirs: medianOf(generate.theirs),
      },
      build: { ours: medianOf(build.ours), theirs: medianOf(build.theirs) },
      output: { ours: medianOf(output.ours), theirs: medianOf(output.theirs) },
      start: { ours: medianOf(start.ours), theirs: medianOf(start.theirs), samples: startSamples },
      perCall: { ...perCall, calls, upstreamRequests: upstream.requests },
    };
    report.loadAverageAtStart = loadAverageAtStart;
    report.loadAverageAtEnd = loadavg();
    report.ratios = openapiRatios({ generate, output, build, start, perCall });
    print(report);
    printRatios(report.ratios, `Ratios to ${GENERATOR.name} ${GENERATOR.version}, run alongside (issue 42's GitHub targets)`);
    writeReport(flags.out, report);
  } finally {
    await upstream.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Issue 42's four GitHub ratios (each with its target), then the others, ours over theirs per round. */
function openapiRatios({ generate, output, build, start, perCall }) {
  const reference = `${GENERATOR.name} ${GENERATOR.version}`;
  const g = generate.ours;
  // Ours is three commands where theirs is one: each round's import + server + client after it.
  const total = (key) => g.import.map((x, i) => x[key] + g.server[i][key] + g.clientAfterServer[i][key]);
  const peak = g.import.map((x, i) => Math.max(x.peakRssMiB, g.server[i].peakRssMiB, g.clientAfterServer[i].peakRssMiB));
  const theirs = (key) => generate.theirs.map((x) => x[key]);
  const row = (metric, unit, ours, theirs, target) => ratioRow({ metric: `GitHub: ${metric}`, unit, reference, ours, theirs, ...(target ? { target } : {}) });
  return [
    row('import + server + client generation, wall', 's', total('wallSeconds'), theirs('wallSeconds'), { ratio: 3 }),
    row('import + server + client generation, CPU', 's', total('cpuSeconds'), theirs('cpuSeconds'), { ratio: 3 }),
    row('server output, apparent size of all files', 'MB', output.ours.map((o) => o.bytes / 1e6), output.theirs.map((o) => o.bytes / 1e6), { value: 10 }),
    row('server output, files', '', output.ours.map((o) => o.files), output.theirs.map((o) => o.files)),
    row('build (tsc --noCheck), wall', 's', build.ours.map((b) => b.wallSeconds), build.theirs.map((b) => b.wallSeconds), { ratio: 2 }),
    row('build (tsc --noCheck), CPU', 's', build.ours.map((b) => b.cpuSeconds), build.theirs.map((b) => b.cpuSeconds), { ratio: 2 }),
    row('peak RSS of generation (the largest of our three commands)', 'MiB', peak, theirs('peakRssMiB'), { ratio: 2 }),
    row('spawn → first tools/list', 'ms', start.ours.map((x) => x.seconds * 1000), start.theirs.map((x) => x.seconds * 1000)),
    row('repos_get: server CPU per call', 'ms', [perCall.ours.cpuMsPerCall], [perCall.theirs.cpuMsPerCall]),
  ];
}

function print(r) {
  const g = r.generate;
  const row = (label, ours, theirs) => console.log(`${label.padEnd(34)} ${String(ours).padStart(14)} ${String(theirs).padStart(14)}`);
  const s = (x) => `${x.wallSeconds.toFixed(2)} s (${x.cpuSeconds.toFixed(2)} CPU)`;
  console.log(`GitHub REST description, ${r.description.tools} tools; median of ${r.runs} runs (${r.machine.nproc} cores, ${r.machine.node})`);
  row('', 'mcp-gen', `${r.competitor.name.slice(0, 7)} ${r.competitor.version}`);
  row('import (wall, CPU)', s(g.ours.import), '');
  row('server generation (wall, CPU)', s(g.ours.server), s(g.theirs));
  row('import + server (wall)', `${(g.ours.import.wallSeconds + g.ours.server.wallSeconds).toFixed(2)} s`, `${g.theirs.wallSeconds.toFixed(2)} s`);
  row('client, cold (wall, CPU)', s(g.ours.clientCold), 'n/a');
  row('client after server (wall, CPU)', s(g.ours.clientAfterServer), 'n/a');
  row('  steps from the shared pack', `${g.ours.clientAfterServer.sharedHits ?? 0} (cold: ${g.ours.clientCold.sharedHits ?? 0})`, '');
  row('server + client after it (wall)', `${g.ours.serverThenClientWallSeconds.toFixed(2)} s`, '');
  row('peak RSS, generation (MiB)', Math.max(g.ours.import.peakRssMiB, g.ours.server.peakRssMiB).toFixed(0), g.theirs.peakRssMiB.toFixed(0));
  row('build, tsc --noCheck (wall)', `${r.build.ours.wallSeconds.toFixed(2)} s`, `${r.build.theirs.wallSeconds.toFixed(2)} s`);
  row('server output (MB, files)', `${(r.output.ours.bytes / 1e6).toFixed(1)}, ${r.output.ours.files}`, `${(r.output.theirs.bytes / 1e6).toFixed(1)}, ${r.output.theirs.files}`);
  row('spawn → first tools/list (ms)', (r.start.ours.seconds * 1000).toFixed(0), (r.start.theirs.seconds * 1000).toFixed(0));
  row('first tools/list: tools, bytes', `${r.start.ours.tools}, ${r.start.ours.bytes}`, `${r.start.theirs.tools}, ${r.start.theirs.bytes}`);
  row('repos_get: server CPU per call (ms)', r.perCall.ours.cpuMsPerCall.toFixed(3), r.perCall.theirs.cpuMsPerCall.toFixed(3));
  row('repos_get: wall per call (ms)', r.perCall.ours.wallMsPerCall.toFixed(3), r.perCall.theirs.wallMsPerCall.toFixed(3));
}

await main();
