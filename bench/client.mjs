#!/usr/bin/env node
// The client benchmark: the client mcp-gen generates (bench/client/client, from the bench manifest,
// output validation on), the official SDK's Client (callTool after listTools, so it validates too),
// and a raw client that writes lines and parses answers (bench/lib/client.mjs), each calling the
// floor server and then the generated server over stdio, sequentially and with 32 calls in flight.
// In every round all six client → server pairs are open; each window is cut in slices and the pairs
// take turns slice by slice, the order rotating per round. The client's CPU is this process's CPU
// during its measurement (only one client runs at a time).
//
//   node bench/client.mjs [--quick] [--rounds N] [--calls N] [--out file.json]
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { tmpdir, loadavg } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioPeer } from './lib/client.mjs';
import { SERVERS, buildOurs } from './lib/servers.mjs';
import { loadWorkload } from './lib/workload.mjs';
import { median } from './lib/stats.mjs';
import { repoRoot } from './lib/paths.mjs';
import { machine, writeReport } from './lib/report.mjs';
import { onServerCpu, pinSelf } from './lib/pin.mjs';
import { printRatios, ratioRow } from './lib/ratios.mjs';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    calls: { type: 'string' },
    out: { type: 'string' },
  },
});
const config = {
  rounds: Number(flags.rounds ?? (flags.quick ? 1 : 5)),
  calls: Number(flags.calls ?? (flags.quick ? 300 : 6000)),
  warmup: flags.quick ? 200 : 3000,
  inFlight: 32,
};
const outFile = flags.out ?? path.join(flags.quick ? tmpdir() : path.join(repoRoot, 'bench', 'results'), 'clients.json');
const log = (text) => process.stderr.write(text + '\n');
const loadAverageAtStart = loadavg();

// The generated client runs from its compiled output, like an app's.
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
buildOurs(); // generates the bench client too
execFileSync(process.execPath, [tsc, '-p', path.join(repoRoot, 'bench', 'client', 'tsconfig.json')], { stdio: 'inherit' });
const generated = await import(path.join(repoRoot, 'bench', 'client', 'build', 'client', 'client.js'));
// The clients on CPU 0, every server on CPU 1 (bench/lib/pin.mjs).
pinSelf();
const workload = loadWorkload();
const weather = workload.cases.weather;
const search = workload.cases.search;

/** Each client as { call(tool, args) → structuredContent, close() }. */
const CLIENTS = {
  raw: async (server) => {
    const peer = new StdioPeer(server);
    await peer.initialize();
    return {
      call: async (tool, args) => (await peer.callTool(tool, args)).structuredContent,
      close: () => peer.close(),
    };
  },
  sdk: async (server) => {
    const client = new Client({ name: 'bench-sdk-client', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: server.command, args: server.args, cwd: server.cwd, stderr: 'ignore' }));
    await client.listTools(); // the SDK validates structuredContent only for tools it has listed
    return {
      call: async (name, args) => (await client.callTool({ name, arguments: args })).structuredContent,
      close: () => client.close(),
    };
  },
  generated: async (server) => {
    const client = await generated.connect({ command: server.command, args: server.args, cwd: server.cwd, stderr: 'ignore', protocolVersions: ['2025-11-25'] });
    const methods = { get_weather: client.tools.getWeather, search: client.tools.search };
    return { call: (tool, args) => methods[tool](args), close: () => client.close() };
  },
};

async function run(client, testCase, calls, inFlight) {
  let next = 0;
  const worker = async () => {
    while (next < calls) {
      next++;
      const output = await client.call(testCase.tool, testCase.args);
      if (output === undefined) throw new Error('no structured output');
    }
  };
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  const elapsedMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { usPerCall: (elapsedMs * 1000) / calls, clientCpuUsPerCall: (used.user + used.system) / calls };
}

/**
 * [name, case, calls in flight, share of `calls`]. The shares give every window a similar length
 * (about half a second here): a 32-in-flight `get_weather` call takes a tenth of a sequential one,
 * and a window of a few dozen milliseconds measures scheduling noise, not the client.
 */
const WINDOWS = [
  ['weather seq', weather, 1, 1],
  ['weather c32', weather, config.inFlight, 8],
  ['search seq', search, 1, 1 / 4],
  ['search c32', search, config.inFlight, 1 / 4],
];
/** Each window is cut in slices and the six client → server pairs take turns slice by slice. */
const SLICES = 4;
const clientNames = Object.keys(CLIENTS);
const serverNames = ['floor', 'ours'];
/** results[server][client][window] = list of per-round figures. */
const results = {};
for (const s of serverNames) results[s] = Object.fromEntries(clientNames.map((c) => [c, Object.fromEntries(WINDOWS.map(([w]) => [w, []]))]));

for (let r = 0; r < config.rounds; r++) {
  // Every pair is open at once, so the ratios compare slices taken moments apart.
  const pairs = serverNames.flatMap((serverName) => clientNames.map((clientName) => ({ serverName, clientName })));
  const order = pairs.map((_, i) => pairs[(i + r) % pairs.length]);
  for (const pair of order) {
    pair.client = await CLIENTS[pair.clientName](onServerCpu(SERVERS[pair.serverName]));
    await run(pair.client, weather, config.warmup, 1);
    await run(pair.client, weather, config.warmup, config.inFlight);
    await run(pair.client, search, Math.ceil(config.warmup / 10), config.inFlight);
  }
  for (const [window, testCase, inFlight, share] of WINDOWS) {
    const perSlice = Math.ceil((config.calls * share) / SLICES);
    const totals = new Map(order.map((pair) => [pair, { usPerCall: 0, clientCpuUsPerCall: 0 }]));
    for (let slice = 0; slice < SLICES; slice++) {
      for (const pair of order) {
        const m = await run(pair.client, testCase, perSlice, inFlight);
        const total = totals.get(pair);
        total.usPerCall += m.usPerCall / SLICES;
        total.clientCpuUsPerCall += m.clientCpuUsPerCall / SLICES;
      }
    }
    for (const [pair, total] of totals) results[pair.serverName][pair.clientName][window].push(total);
  }
  for (const pair of order) await pair.client.close();
  log(`round ${r + 1}/${config.rounds} done`);
}

const rows = [];
const summary = {};
for (const [window] of WINDOWS) {
  const base = results.floor.raw[window];
  for (const serverName of serverNames) {
    for (const clientName of clientNames) {
      const runs = results[serverName][clientName][window];
      const sameServerRaw = results[serverName].raw[window];
      const time = median(runs.map((m, i) => m.usPerCall / base[i].usPerCall));
      // The same server with the raw client: what this client adds to the wall time per call.
      const timeSameServer = median(runs.map((m, i) => m.usPerCall / sameServerRaw[i].usPerCall));
      const cpu = median(runs.map((m, i) => m.clientCpuUsPerCall / sameServerRaw[i].clientCpuUsPerCall));
      const entry = {
        usPerCall: median(runs.map((m) => m.usPerCall)),
        clientCpuUsPerCall: median(runs.map((m) => m.clientCpuUsPerCall)),
        timeVsRawToFloor: time,
        timeVsRawToSameServer: timeSameServer,
        clientCpuVsRaw: cpu,
      };
      summary[`${window} | ${clientName} → ${serverName}`] = entry;
      rows.push([window, `${clientName} → ${serverName}`, entry.usPerCall.toFixed(1), `${time.toFixed(2)}x`, `${timeSameServer.toFixed(2)}x`, entry.clientCpuUsPerCall.toFixed(1), `${cpu.toFixed(2)}x`]);
    }
  }
}
const header = ['window', 'client → server', 'µs/call', 'vs raw→floor', 'vs raw→same server', 'client CPU µs/call', 'CPU vs raw'];
console.log([header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n'));
// Issue 42: the generated client within 1.1x of the raw client on every figure, both calling our
// server; the SDK's client beside it, without a target.
const ratios = [];
for (const [window] of WINDOWS) {
  for (const clientName of ['generated', 'sdk']) {
    for (const [key, what] of [['usPerCall', 'µs/call'], ['clientCpuUsPerCall', 'client CPU µs/call']]) {
      const pick = (name) => results.ours[name][window].map((m) => m[key]);
      ratios.push(ratioRow({ metric: `client ${clientName} → ours, ${window}: ${what}`, reference: 'raw client → ours', ours: pick(clientName), theirs: pick('raw'), ...(clientName === 'generated' ? { target: { ratio: 1.1 } } : {}) }));
    }
  }
}
printRatios(ratios, 'Ratios to the raw client, paired per round');
writeReport(outFile, { date: new Date().toISOString(), machine: machine(), loadavg: loadAverageAtStart, loadAverageAtStart, loadAverageAtEnd: loadavg(), config, summary, ratios, results });
log(`written: ${path.relative(process.cwd(), outFile)}`);
