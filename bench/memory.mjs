#!/usr/bin/env node
// Memory under a long run (issue 6): 100 000 tools/call requests with large arguments to the
// generated bench server, over stdio and over Streamable HTTP. RSS (VmRSS, read from /proc outside
// the server) is sampled every `--every` calls; the verdict compares the end with the sample right
// after the warm-up (target: within 10%). A benchmark, not a test: run it on a quiet machine.
//
//   node bench/memory.mjs [--calls 100000] [--warmup 10000] [--arg-bytes 16384] [--in-flight 8] [--rounds 1]
//                         [--transports stdio,http] [--servers floor,ours] [--out bench/results/memory.json]
//
// Every round runs each server of `--servers` in turn on each transport (the order alternating per
// round): by default the hand-written floor (bench/floor/server.mjs over stdio, http-server.mjs over
// HTTP) beside ours, since V8 resizes its heap for the floor too; ours' RSS at the end and its growth
// over the run print as ratios to the floor's, paired per round (`--servers ours` runs ours alone).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { StdioPeer, PROTOCOL_VERSION } from './lib/client.mjs';
import { rssBytes } from './lib/proc.mjs';
import { SERVERS, buildOurs } from './lib/servers.mjs';
import { repoRoot } from './lib/paths.mjs';
import { machine, writeReport } from './lib/report.mjs';
import { loadavg } from 'node:os';
import { printRatios, ratioRow } from './lib/ratios.mjs';

const { values: flags } = parseArgs({
  options: {
    calls: { type: 'string', default: '100000' },
    warmup: { type: 'string', default: '10000' },
    every: { type: 'string', default: '5000' },
    'arg-bytes': { type: 'string', default: '16384' },
    'in-flight': { type: 'string', default: '8' },
    transports: { type: 'string', default: 'stdio,http' },
    servers: { type: 'string', default: 'floor,ours' },
    rounds: { type: 'string', default: '1' },
    out: { type: 'string', default: path.join(repoRoot, 'bench', 'results', 'memory.json') },
  },
});
const calls = Number(flags.calls);
const warmup = Number(flags.warmup);
const every = Number(flags.every);
const argBytes = Number(flags['arg-bytes']);
const inFlight = Number(flags['in-flight']);
const rounds = Number(flags.rounds);
const servers = flags.servers.split(',').filter((name) => name !== '');

/** A different large argument on every call, so nothing can be served from a cache. */
const padding = 'x'.repeat(argBytes);
const argsFor = (i) => ({ location: `${i}:${padding}`, units: i % 2 === 0 ? 'celsius' : 'fahrenheit' });

/** Runs `calls` calls through `call`, `inFlight` at a time, sampling RSS every `every` calls. */
async function drive(call, pid) {
  const samples = [{ calls: 0, rssMiB: rssBytes(pid) / 2 ** 20 }];
  let next = 0;
  let done = 0;
  let nextSample = every;
  const worker = async () => {
    while (next < calls) {
      const i = next++;
      const result = await call(i);
      if (result?.structuredContent?.conditions === undefined) throw new Error(`call ${i}: unexpected result ${JSON.stringify(result).slice(0, 200)}`);
      done++;
      if (done >= nextSample) {
        samples.push({ calls: done, rssMiB: rssBytes(pid) / 2 ** 20 });
        nextSample += every;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { samples, seconds: (performance.now() - started) / 1000 };
}

async function overStdio(server) {
  const peer = new StdioPeer(SERVERS[server]);
  try {
    await peer.initialize();
    return await drive((i) => peer.callTool('get_weather', argsFor(i)), peer.pid);
  } finally {
    await peer.close();
  }
}

async function overHttp(server) {
  const args = server === 'floor' ? [path.join(repoRoot, 'bench', 'floor', 'http-server.mjs'), '--port', '0'] : [SERVERS.ours.args[0], '--http', '--port', '0'];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    const url = await new Promise((resolve, reject) => {
      let err = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (text) => {
        err += text;
        const match = /listening on (\S+)/.exec(err);
        if (match) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`server exited (${code}): ${err}`)));
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const post = async (body) => {
      const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
      if (response.status === 202) return undefined;
      if (!headers['mcp-session-id'] && response.headers.get('mcp-session-id')) headers['mcp-session-id'] = response.headers.get('mcp-session-id');
      return response.json();
    };
    await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'mem', version: '1' } } });
    headers['mcp-protocol-version'] = PROTOCOL_VERSION;
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return await drive(async (i) => (await post({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'get_weather', arguments: argsFor(i) } })).result, child.pid);
  } finally {
    child.kill();
  }
}

buildOurs();
for (const server of servers) {
  if (!(server in SERVERS) || (server === 'sdk' && flags.transports !== 'stdio')) throw new Error('--servers names ours or floor, or sdk with --transports stdio');
}
const report = { machine: machine(), date: new Date().toISOString(), loadAverageAtStart: loadavg(), servers, rounds, config: { calls, warmup, every, argBytes, inFlight }, runs: {} };
for (let round = 0; round < rounds; round++) {
  for (const transport of flags.transports.split(',')) {
    for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
      const run = transport === 'http' ? await overHttp(server) : await overStdio(server);
      const atWarmup = run.samples.find((s) => s.calls >= warmup);
      const end = run.samples[run.samples.length - 1];
      const peak = Math.max(...run.samples.filter((s) => s.calls >= warmup).map((s) => s.rssMiB));
      const verdict = { warmupMiB: atWarmup.rssMiB, endMiB: end.rssMiB, peakAfterWarmupMiB: peak, endOverWarmup: end.rssMiB / atWarmup.rssMiB, peakOverWarmup: peak / atWarmup.rssMiB };
      ((report.runs[server] ??= {})[transport] ??= []).push({ ...run, ...verdict });
      console.log(
        `${server} over ${transport}: ${end.calls} calls of ${argBytes}-byte arguments in ${run.seconds.toFixed(1)} s; RSS after ${atWarmup.calls} calls ${atWarmup.rssMiB.toFixed(1)} MiB, ` +
          `at the end ${end.rssMiB.toFixed(1)} MiB (${verdict.endOverWarmup.toFixed(3)}x), peak ${peak.toFixed(1)} MiB (${verdict.peakOverWarmup.toFixed(3)}x); target ≤ 1.10x: ${verdict.endOverWarmup <= 1.1 ? 'met' : 'NOT met'}`,
      );
      console.log(`  samples (calls: MiB): ${run.samples.map((s) => `${s.calls}: ${s.rssMiB.toFixed(1)}`).join(', ')}`);
    }
  }
}
report.loadAverageAtEnd = loadavg();
report.ratios = [];
if (report.runs.ours !== undefined && report.runs.floor !== undefined) {
  for (const transport of Object.keys(report.runs.ours)) {
    const pick = (server, key) => report.runs[server][transport].map((r) => r[key]);
    report.ratios.push(ratioRow({ metric: `${transport}: RSS after ${calls} calls of ${argBytes}-byte arguments`, unit: 'MiB', reference: 'floor', ours: pick('ours', 'endMiB'), theirs: pick('floor', 'endMiB') }));
    report.ratios.push(ratioRow({ metric: `${transport}: RSS growth from the warm-up to the end (end / warm-up)`, reference: 'floor', ours: pick('ours', 'endOverWarmup'), theirs: pick('floor', 'endOverWarmup') }));
  }
  printRatios(report.ratios, 'Ratios to the floor, paired per round');
}
writeReport(flags.out, report);
