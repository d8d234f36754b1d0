#!/usr/bin/env node
// The Streamable HTTP benchmark: tools/call over keep-alive connections against the floor (bare
// node:http, no validation), the official SDK 1.x (StreamableHTTPServerTransport, JSON responses),
// the official SDK 2.x (createMcpHandler; stateless mode only, where it applies) and ours (the
// generated bench server, `--http`). Two modes: session (initialize once, then every call names the
// session) and stateless (floor and SDK 1.x: no session; SDK 2.x and ours: the 2026-07-28 revision,
// `_meta` and the standard headers on every request). 1 and 16 connections. `ours+auth` is the same
// server as an OAuth resource server (`--auth-issuer`): every call carries one reused JWT access
// token, verified once and then found in the token cache; its keys come from a JWKS served here.
//
//   node bench/http.mjs [--rounds 5] [--calls 3000] [--search-calls 600] [--mem-calls 100000] [--quick]
//
// Every round runs every server in turn (the order rotates), window by window and, within a window,
// slice by slice, so a burst of other work on the machine hits all of them (after each slice it waits
// until that server is idle, see settle); ratios are paired per round, then the median is reported.
// Server CPU per call comes from /proc/<pid>/stat (the stable figure); latency is the client's.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { cpuTimes, rssBytes } from './lib/proc.mjs';
import { checkResult, loadWorkload } from './lib/workload.mjs';
import { buildOurs } from './lib/servers.mjs';
import { pinSelf } from './lib/pin.mjs';
import { HttpPeer, startHttpServer } from './lib/http-peer.mjs';
import { median, windowMetrics } from './lib/stats.mjs';
import { repoRoot } from './lib/paths.mjs';
import { machine, writeReport } from './lib/report.mjs';
import { startIssuer } from './lib/issuer.mjs';
import { printRatios, ratioRow } from './lib/ratios.mjs';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    calls: { type: 'string' },
    'search-calls': { type: 'string' },
    'mem-calls': { type: 'string' },
    out: { type: 'string', default: path.join(repoRoot, 'bench', 'results', 'http.json') },
  },
});
const ROUNDS = Number(flags.rounds ?? (flags.quick ? 1 : 5));
const CALLS = Number(flags.calls ?? (flags.quick ? 300 : 3000));
const SEARCH_CALLS = Number(flags['search-calls'] ?? (flags.quick ? 60 : 600));
const MEM_CALLS = Number(flags['mem-calls'] ?? (flags.quick ? 2000 : 100_000));
const CONNECTIONS = [1, 16];
const MODES = ['session', 'stateless'];
const SERVERS = ['floor', 'sdk', 'sdk2', 'ours', 'ours+auth'];
const isOurs = (server) => server === 'ours' || server === 'ours+auth';
/** The SDK 2.x server is measured where it applies: the stateless revision 2026-07-28. */
const serves = (server, mode) => server !== 'sdk2' || mode === 'stateless';
const workload = loadWorkload();
// The issuer of the one access token every `ours+auth` call reuses.
const issuer = await startIssuer();

const at = (...parts) => path.join(repoRoot, ...parts);
const COMMANDS = {
  floor: (mode) => [at('bench', 'floor', 'http-server.mjs'), '--port', '0', ...(mode === 'stateless' ? ['--stateless'] : [])],
  sdk: (mode) => [at('bench', 'sdk', 'http-server.mjs'), '--port', '0', ...(mode === 'stateless' ? ['--stateless'] : [])],
  sdk2: () => [at('bench', 'sdk2', 'http-server.mjs'), '--port', '0'],
  // One binary for both: a 2026-07-28 request is stateless by itself.
  ours: () => [at('bench', 'server', 'build', 'main.js'), '--http', '--port', '0'],
  'ours+auth': () => [
    at('bench', 'server', 'build', 'main.js'),
    ...['--http', '--port', '0', '--auth-issuer', issuer.issuer, '--auth-jwks', issuer.jwksUri, '--resource', issuer.resource],
  ],
};

function start(server, mode) {
  return startHttpServer(process.execPath, COMMANDS[server](mode), server);
}

/** One HTTP client of `server` (bench/lib/http-peer.mjs): ours and SDK 2 take 2026-07-28 stateless calls. */
function peerOf(server, mode, url, connections) {
  const token = server === 'ours+auth' ? issuer.token : undefined;
  return new HttpPeer({ server, url, mode, connections, token, stateless2026: isOurs(server) || server === 'sdk2' });
}

/** Checks every workload case once: a server that answers differently is not measured. */
async function verify(peer) {
  for (const [name, testCase] of Object.entries(workload.cases)) {
    const { body } = await peer.call(testCase.tool, testCase.args);
    // At 2026-07-28 both the SDK 2.x and ours name the server in every result's `_meta` (the
    // schema's SHOULD); that member alone is set aside, anything else in `_meta` still fails.
    const { resultType, ...result } = body.result;
    if (peer.server === 'sdk2' || (isOurs(peer.server) && peer.mode === 'stateless')) {
      const { 'io.modelcontextprotocol/serverInfo': identity, ...rest } = result._meta ?? {};
      if (isOurs(peer.server) && identity === undefined) throw new Error('ours stateless: no serverInfo in _meta');
      if (Object.keys(rest).length === 0) delete result._meta;
      else result._meta = rest;
    }
    if ((isOurs(peer.server) || peer.server === 'sdk2') && peer.mode === 'stateless' && resultType !== 'complete') throw new Error(`${peer.server} stateless: resultType ${resultType}`);
    checkResult(`${peer.server} ${peer.mode} ${name}`, testCase, result);
  }
}

/** `calls` tools/call spread over the peer's connections: server CPU, latencies, wall time (see `windowMetrics`). */
/**
 * Waits until `pid` has used no CPU for 30 ms (at most 1 s). The servers share one CPU, and what a
 * server does after its slice (garbage collection, freeing a slice's worth of requests) would
 * otherwise land in the next server's slice. In the rotation our server always comes right after
 * the SDK 2.x server, whose slices are the heaviest: without this pause it read 1.58x and 1.73x the
 * floor in the weather stateless 16-connection window (more than our server with auth on, which
 * follows it), and 1.28x with it.
 */
async function settle(pid) {
  let last = cpuTimes(pid);
  for (let waited = 0; waited < 1000; waited += 30) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    const now = cpuTimes(pid);
    if (now.user === last.user && now.system === last.system) return;
    last = now;
  }
}

async function slice(peer, pid, testCase, calls, connections) {
  const latencies = new Float64Array(calls);
  let issued = 0;
  const before = cpuTimes(pid);
  const started = performance.now();
  const worker = async () => {
    while (issued < calls) {
      const index = issued++;
      const t0 = performance.now();
      await peer.call(testCase.tool, testCase.args);
      latencies[index] = performance.now() - t0;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsedMs = performance.now() - started;
  const after = cpuTimes(pid);
  return { calls, userSeconds: after.user - before.user, systemSeconds: after.system - before.system, elapsedMs, latencies };
}

buildOurs();
// The load generator on CPU 0, every server on CPU 1 (bench/lib/pin.mjs).
pinSelf();
const processes = {};
for (const mode of MODES) {
  for (const server of SERVERS) {
    if (!serves(server, mode)) continue;
    if (isOurs(server) && mode === 'stateless') processes[`${server}/${mode}`] = processes[`${server}/session`];
    else processes[`${server}/${mode}`] = await start(server, mode);
  }
}

// With 16 connections a call takes a quarter of the time it takes alone: those windows get four
// times the calls, so every window lasts long enough for the 10 ms CPU clock and for a burst of
// other work to average out.
const WINDOWS = [
  ...MODES.flatMap((mode) => CONNECTIONS.map((connections) => ({ mode, connections, caseName: 'weather', calls: connections === 1 ? CALLS : 4 * CALLS }))),
  ...MODES.map((mode) => ({ mode, connections: 16, caseName: 'search', calls: 4 * SEARCH_CALLS })),
];
/** Each window is cut in slices and the servers take turns slice by slice. */
const SLICES = 4;
const label = (w) => `${w.caseName} ${w.mode}, ${w.connections} conn`;
const samples = {}; // label → server → [{…} per round]
const load = [];
const loadAverageAtStart = loadavg();
try {
  // Peers live for the whole run (one session each), so the servers keep their state between rounds.
  const peers = {};
  for (const w of WINDOWS) {
    for (const server of SERVERS) {
      if (!serves(server, w.mode)) continue;
      const key = `${server}/${w.mode}/${w.connections}`;
      if (peers[key] !== undefined) continue;
      const { url } = processes[`${server}/${w.mode}`];
      peers[key] = peerOf(server, w.mode, url, w.connections);
      await peers[key].open();
      await verify(peers[key]);
      await slice(peers[key], processes[`${server}/${w.mode}`].child.pid, workload.cases.weather, Math.min(CALLS, 500), w.connections); // warm-up
    }
  }
  for (let round = 0; round < ROUNDS; round++) {
    load.push(loadavg()[0]);
    const order = SERVERS.map((_, i) => SERVERS[(i + round) % SERVERS.length]);
    for (const w of WINDOWS) {
      const servers = order.filter((server) => serves(server, w.mode));
      const slices = Object.fromEntries(servers.map((server) => [server, []]));
      for (let turn = 0; turn < SLICES; turn++) {
        for (const server of servers) {
          const peer = peers[`${server}/${w.mode}/${w.connections}`];
          const pid = processes[`${server}/${w.mode}`].child.pid;
          slices[server].push(await slice(peer, pid, workload.cases[w.caseName], Math.ceil(w.calls / SLICES), w.connections));
          await settle(pid);
        }
      }
      for (const server of servers) ((samples[label(w)] ??= {})[server] ??= []).push(windowMetrics(slices[server]));
    }
    process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
  }

  // Memory: RSS before and after MEM_CALLS calls in each mode, 16 connections, then after MEM_CALLS
  // more. Every server sat idle while the others were measured, and V8's memory reducer shrinks an
  // idle heap: the first window includes the young generation growing back to its working size
  // (one or two doublings, 2 to 6 MiB), the second shows what stays per request once it has.
  const memory = {};
  for (const mode of ['session', 'stateless']) {
    for (const server of SERVERS) {
      if (!serves(server, mode)) continue;
      const key = `${server}/${mode}`;
      const peer = peerOf(server, mode, processes[key].url, 16);
      await peer.open();
      const pid = processes[key].child.pid;
      await slice(peer, pid, workload.cases.weather, 2000, 16);
      const before = rssBytes(pid);
      await slice(peer, pid, workload.cases.weather, MEM_CALLS, 16);
      const after = rssBytes(pid);
      await slice(peer, pid, workload.cases.weather, MEM_CALLS, 16);
      const second = rssBytes(pid);
      memory[key] = {
        beforeMiB: before / 2 ** 20,
        afterMiB: after / 2 ** 20,
        growth: after / before - 1,
        bytesPerRequest: (after - before) / MEM_CALLS,
        secondMiB: second / 2 ** 20,
        secondGrowth: second / after - 1,
        secondBytesPerRequest: (second - after) / MEM_CALLS,
      };
      peer.close();
    }
  }
  for (const peer of Object.values(peers)) peer.close();

  // Report: medians over rounds, and ratios paired within each round.
  // Issue 42: server CPU per call within 1.1x the floor at 16 connections, both eras (the session
  // mode is 2025-11-25, stateless 2026-07-28); the latency target is issue 5's.
  const metrics = [
    ['cpuPerCallUs', 'server CPU µs/call', 1.1],
    ['p50Us', 'p50 latency µs', 1.5],
    ['p99Us', 'p99 latency µs', undefined],
    ['callsPerSec', 'calls/s', undefined],
  ];
  const rows = [];
  const ratioRows = [];
  const table = [
    '| window | metric | floor | sdk 1.x | sdk 2.x | ours | ours+auth | ours/floor | sdk 1.x/floor | sdk 2.x/floor | ours+auth/ours | ours/floor range | target |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const fmt = (v) => (v >= 100 ? Math.round(v).toString() : v.toFixed(1));
  for (const w of WINDOWS) {
    const byServer = samples[label(w)];
    if (byServer === undefined) continue; // --rounds 0: memory only
    for (const [key, name, target] of metrics) {
      const measured = SERVERS.filter((s) => byServer[s] !== undefined);
      const med = Object.fromEntries(measured.map((s) => [s, median(byServer[s].map((r) => r[key]))]));
      const ratios = (a) => byServer[a].map((r, i) => r[key] / byServer.floor[i][key]);
      const oursRatios = ratios('ours');
      const ours = median(oursRatios);
      const sdk = median(ratios('sdk'));
      const sdk2 = byServer.sdk2 === undefined ? undefined : median(ratios('sdk2'));
      // Auth on (a reused token) against auth off, paired within each round like the others.
      const authOverOurs = median(byServer['ours+auth'].map((r, i) => r[key] / byServer.ours[i][key]));
      const applies = target !== undefined && (key !== 'cpuPerCallUs' || w.connections === 16);
      const verdict = applies ? `≤ ${target} ${ours <= target ? 'met' : 'NOT met'}` : '';
      if (key === 'cpuPerCallUs' || key === 'p50Us') {
        const pick = (server) => byServer[server].map((r) => r[key]);
        ratioRows.push(ratioRow({ metric: `HTTP ${label(w)}: ${name}`, reference: 'floor', ours: pick('ours'), theirs: pick('floor'), ...(applies ? { target: { ratio: target } } : {}) }));
        if (key === 'cpuPerCallUs') ratioRows.push(ratioRow({ metric: `HTTP ${label(w)}: ${name}, auth on (a reused token)`, reference: 'ours, auth off', ours: pick('ours+auth'), theirs: pick('ours') }));
      }
      rows.push({ window: label(w), metric: name, ...med, oursOverFloor: ours, sdkOverFloor: sdk, sdk2OverFloor: sdk2, authOverOurs, range: [Math.min(...oursRatios), Math.max(...oursRatios)] });
      const dash = (v, f) => (v === undefined ? '–' : f(v));
      table.push(
        `| ${label(w)} | ${name} | ${fmt(med.floor)} | ${fmt(med.sdk)} | ${dash(med.sdk2, fmt)} | ${fmt(med.ours)} | ${fmt(med['ours+auth'])} | ${ours.toFixed(2)}x | ${sdk.toFixed(2)}x | ${dash(sdk2, (v) => `${v.toFixed(2)}x`)} | ${authOverOurs.toFixed(2)}x | ${Math.min(...oursRatios).toFixed(2)}x – ${Math.max(...oursRatios).toFixed(2)}x | ${verdict} |`,
      );
    }
  }
  const memTable = [
    `| server | mode | RSS before | after ${MEM_CALLS} | growth | bytes/request | after ${2 * MEM_CALLS} | growth over the second ${MEM_CALLS} | bytes/request |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const pct = (v) => `${(v * 100).toFixed(1)}%`;
  for (const [key, m] of Object.entries(memory)) {
    const [server, mode] = key.split('/');
    memTable.push(
      `| ${server} | ${mode} | ${m.beforeMiB.toFixed(1)} MiB | ${m.afterMiB.toFixed(1)} MiB | ${pct(m.growth)} | ${Math.round(m.bytesPerRequest)} | ${m.secondMiB.toFixed(1)} MiB | ${pct(m.secondGrowth)} | ${Math.round(m.secondBytesPerRequest)} |`,
    );
  }
  console.log(table.join('\n'));
  console.log(`\nRSS over ${MEM_CALLS} get_weather calls in each mode, then ${MEM_CALLS} more (16 connections; ours serves both modes from one process):\n`);
  console.log(memTable.join('\n'));
  console.log(`\nload average (1 min) at each round: ${load.map((l) => l.toFixed(2)).join(', ')}`);
  // RSS after the load, one sample per server (issue 42: about 1.05x the floor at 2026-07-28).
  for (const mode of MODES) {
    const rss = (server) => [memory[`${server}/${mode}`].afterMiB];
    ratioRows.push(ratioRow({ metric: `HTTP ${mode}: RSS after ${MEM_CALLS} weather calls, 16 conn`, unit: 'MiB', reference: 'floor', ours: rss('ours'), theirs: rss('floor'), ...(mode === 'stateless' ? { target: { ratio: 1.05 } } : {}) }));
  }
  printRatios(ratioRows, 'Ratios paired per round (RSS: one sample each)');
  writeReport(flags.out, { machine: machine(), date: new Date().toISOString(), loadAverageAtStart, loadAverageAtEnd: loadavg(), rounds: ROUNDS, calls: CALLS, searchCalls: SEARCH_CALLS, memCalls: MEM_CALLS, rows, ratios: ratioRows, memory, load });
} finally {
  for (const { child } of new Set(Object.values(processes))) child.kill();
  await issuer.close();
}
