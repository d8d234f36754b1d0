#!/usr/bin/env node
// The client's own CPU per call over Streamable HTTP, by wire: the generated bench server
// (`bench/server`, --http, on CPU 1) called with `get_weather` by the client runtime (compiled in
// `<root>/dist`, on CPU 0), sequentially, in both eras. Wires: `node` (what a Node app's client
// uses: connect.ts, node:http) and, where the runtime has it, `fetch` (fetch-wire.ts, what a browser
// client uses, here on Node's fetch). `--before DIR` adds the node wire of another checkout's build
// (e.g. main's, built with `npm run build`) for a before/after in the same process; the wires and
// eras take turns round by round, the order reversed every other round. The floor is `raw`: the
// benches' thin HTTP client (bench/lib/http-peer.mjs: one keep-alive agent, JSON in and out, no
// validation), the same calls in the same era; every wire prints its ratio to it (issue 42: the
// client within 1.1x of a raw client), and `node (before)` its ratio to `node`.
//
//   node bench/client-http.mjs [--before DIR] [--skip-fetch] [--rounds N] [--calls N] [--out file.json]
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildOurs } from './lib/servers.mjs';
import { onServerCpu, pinSelf, placement } from './lib/pin.mjs';
import { median } from './lib/stats.mjs';
import { repoRoot } from './lib/paths.mjs';
import { HttpPeer } from './lib/http-peer.mjs';
import { printRatios, ratioRow } from './lib/ratios.mjs';
import { machine, writeReport } from './lib/report.mjs';

const { values: flags } = parseArgs({
  options: {
    before: { type: 'string' },
    'skip-fetch': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '5' },
    calls: { type: 'string', default: '2000' },
    out: { type: 'string', default: path.join(repoRoot, 'bench', 'results', 'client-http.json') },
  },
});
const loadAverageAtStart = loadavg();
const rounds = Number(flags.rounds);
const calls = Number(flags.calls);
const runtime = (root, file) => pathToFileURL(path.join(root, 'dist', 'runtime', 'client', file)).href;

buildOurs();
const server = onServerCpu({ command: process.execPath, args: [path.join(repoRoot, 'bench', 'server', 'build', 'main.js'), '--http', '--port', '0'] });
const child = spawn(server.command, server.args, { stdio: ['ignore', 'ignore', 'pipe'] });
const url = await new Promise((resolve, reject) => {
  let text = '';
  child.stderr.on('data', (chunk) => {
    text += chunk;
    const match = /listening on (\S+)/.exec(text);
    if (match) resolve(match[1]);
  });
  child.once('exit', () => reject(new Error(`the bench server exited: ${text}`)));
});
pinSelf();

/** Each wire: how to open a session on it, and the runtime's callTool. */
const wires = {};
// The floor: a session (2025-11-25) or stateless 2026-07-28 calls, as bench/http.mjs sends them.
wires.raw = {
  open: async (revision) => {
    const peer = new HttpPeer({ server: 'bench server', url: new URL(url), mode: revision === '2026-07-28' ? 'stateless' : 'session', connections: 1, stateless2026: true });
    await peer.open();
    return peer;
  },
  callTool: async (peer, { name }, args) => {
    const { body } = await peer.call(name, args);
    if (body?.result?.structuredContent === undefined) throw new Error(`raw client: unexpected answer ${JSON.stringify(body).slice(0, 300)}`);
    return body.result;
  },
};
const index = await import(runtime(repoRoot, 'index.js'));
wires.node = { open: (revision) => index.openSession({ url, protocolVersions: [revision] }), callTool: index.callTool };
const { fetchExchange } = await import(runtime(repoRoot, 'fetch-wire.js'));
const { httpTransport } = await import(runtime(repoRoot, 'http-location.js'));
if (!flags['skip-fetch']) {
  wires.fetch = {
    open: async (revision) => {
      const session = new index.ClientSession(await httpTransport({ url }, fetchExchange), { protocolVersions: [revision] });
      await session.connect();
      return session;
    },
    callTool: index.callTool,
  };
}
if (flags.before !== undefined) {
  const before = await import(runtime(path.resolve(flags.before), 'index.js'));
  wires['node (before)'] = { open: (revision) => before.openSession({ url, protocolVersions: [revision] }), callTool: before.callTool };
}

const tool = { name: 'get_weather' };
const args = { location: 'Lisbon', units: 'celsius' };
async function measure({ open, callTool }, revision, n) {
  const session = await open(revision);
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < n; i++) await callTool(session, tool, args);
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - started;
  await session.close();
  return { cpu: (used.user + used.system) / n, wall: (wall * 1000) / n };
}

const results = {};
for (const wire of Object.keys(wires)) for (const revision of ['2025-11-25', '2026-07-28']) await measure(wires[wire], revision, 300);
for (let r = 0; r < rounds; r++) {
  const order = Object.keys(wires);
  if (r % 2 === 1) order.reverse();
  for (const wire of order) {
    for (const revision of ['2025-11-25', '2026-07-28']) {
      const key = `${wire}|${revision}`;
      (results[key] ??= []).push(await measure(wires[wire], revision, calls));
    }
  }
}
child.kill();
console.log(`before: ${flags.before ?? '(none)'}; ${rounds} rounds × ${calls} calls; ${placement}`);
console.log('| wire | era | client CPU µs/call | µs/call |');
console.log('| --- | --- | --- | --- |');
for (const [key, runs] of Object.entries(results)) {
  const [wire, revision] = key.split('|');
  console.log(`| ${wire} | ${revision} | ${median(runs.map((x) => x.cpu)).toFixed(1)} | ${median(runs.map((x) => x.wall)).toFixed(1)} |`);
}
const ratios = [];
for (const revision of ['2025-11-25', '2026-07-28']) {
  const pick = (wire, key) => results[`${wire}|${revision}`].map((x) => x[key]);
  for (const [key, what] of [['cpu', 'client CPU µs/call'], ['wall', 'µs/call']]) {
    for (const wire of Object.keys(wires).filter((w) => w !== 'raw' && w !== 'node (before)')) {
      ratios.push(ratioRow({ metric: `client over HTTP ${revision}, ${wire} wire: ${what}`, reference: 'raw HTTP client', ours: pick(wire, key), theirs: pick('raw', key), ...(wire === 'node' ? { target: { ratio: 1.1 } } : {}) }));
    }
    if (wires['node (before)'] !== undefined) {
      ratios.push(ratioRow({ metric: `client over HTTP ${revision}, node wire: ${what}`, reference: `node wire of ${flags.before}`, ours: pick('node', key), theirs: pick('node (before)', key) }));
    }
  }
}
printRatios(ratios, 'Ratios paired per round');
writeReport(flags.out, { date: new Date().toISOString(), machine: machine(), loadAverageAtStart, loadAverageAtEnd: loadavg(), rounds, calls, before: flags.before ?? null, ratios, results });
