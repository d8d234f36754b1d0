#!/usr/bin/env node
// What tracing costs (docs/tracing.md): the generated bench server over stdio, three ways, as
// separate processes measured side by side: `off` (tracing off, as generated), `on` (tracing on with
// the OpenTelemetry SDK: a batch span processor into an in-memory exporter, a meter provider with a
// reader, the AsyncLocalStorage context manager) and `api-only` (tracing on, no SDK registered: the
// API's no-op providers). Every round runs each server in turn (the order rotates); the server's
// CPU per tools/call comes from /proc/<pid>/stat, 32 requests in flight.
//
//   node bench/tracing.mjs [--rounds 5] [--calls 20000]
import path from 'node:path';
import { parseArgs } from 'node:util';
import { StdioPeer } from './lib/client.mjs';
import { cpuTimes } from './lib/proc.mjs';
import { buildOurs } from './lib/servers.mjs';
import { median } from './lib/stats.mjs';
import { loadWorkload, checkResult } from './lib/workload.mjs';
import { repoRoot } from './lib/paths.mjs';
import { loadavg } from 'node:os';
import { machine, writeReport } from './lib/report.mjs';
import { printRatios, ratioRow } from './lib/ratios.mjs';

const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    calls: { type: 'string', default: '20000' },
    'in-server': { type: 'string' },
    out: { type: 'string', default: path.join(repoRoot, 'bench', 'results', 'tracing.json') },
  },
});

// The server side of one measurement: this same file, started with --in-server off|on|api-only.
if (flags['in-server'] !== undefined) {
  const mode = flags['in-server'];
  if (mode === 'on') {
    const { context, metrics, trace } = await import('@opentelemetry/api');
    const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
    const { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter } = await import('@opentelemetry/sdk-trace-base');
    const { MeterProvider, PeriodicExportingMetricReader, InMemoryMetricExporter, AggregationTemporality } = await import('@opentelemetry/sdk-metrics');
    const spans = new InMemorySpanExporter();
    // Exported spans are dropped at once: the exporter's memory must not grow with the run.
    const exportSpans = spans.export.bind(spans);
    spans.export = (batch, done) => exportSpans(batch, (result) => (spans.reset(), done(result)));
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(spans)] }));
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const reader = new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 1000 });
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  }
  const server = path.join(repoRoot, 'bench', 'server', 'build');
  const { createServer } = await import(path.join(server, 'generated', 'server.js'));
  const { handlers } = await import(path.join(server, 'handlers', 'index.js'));
  await createServer(handlers, { logger: () => {}, tracing: mode !== 'off' }).serveStdio();
  process.exit(0);
}

const ROUNDS = Number(flags.rounds);
const CALLS = Number(flags.calls);
const IN_FLIGHT = 32;
const MODES = ['off', 'on', 'api-only'];
const workload = loadWorkload();
const weather = Object.entries(workload.cases).find(([, c]) => c.tool === 'get_weather');

const loadAverageAtStart = loadavg();
buildOurs();
const self = new URL(import.meta.url).pathname;
const peers = {};
for (const mode of MODES) {
  peers[mode] = new StdioPeer({ command: process.execPath, args: [self, '--in-server', mode], cwd: repoRoot });
  await peers[mode].initialize();
  // Verified and warmed before it is measured.
  checkResult(weather[0], weather[1], await peers[mode].callTool(weather[1].tool, weather[1].args));
  await window(peers[mode], 3000);
}

async function window(peer, calls) {
  let sent = 0;
  const worker = async () => {
    while (sent < calls) {
      sent++;
      await peer.callTool(weather[1].tool, weather[1].args);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

const cpu = Object.fromEntries(MODES.map((mode) => [mode, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = MODES.map((_, i) => MODES[(i + round) % MODES.length]);
  for (const mode of order) {
    const peer = peers[mode];
    const before = cpuTimes(peer.pid);
    await window(peer, CALLS);
    const after = cpuTimes(peer.pid);
    cpu[mode].push(((after.user + after.system - before.user - before.system) * 1e6) / CALLS);
  }
  console.log(`round ${round + 1}/${ROUNDS}: ` + MODES.map((m) => `${m} ${cpu[m].at(-1).toFixed(1)} µs`).join(', '));
}
for (const peer of Object.values(peers)) await peer.close();

const ratio = (mode) => median(cpu[mode].map((value, i) => value / cpu.off[i]));
console.log('| tracing | server CPU µs per get_weather call (32 in flight, median) | ratio to off (paired per round) |');
console.log('| --- | --- | --- |');
for (const mode of MODES) console.log(`| ${mode} | ${median(cpu[mode]).toFixed(1)} | ${mode === 'off' ? '1' : ratio(mode).toFixed(2)} |`);

// Each tracing mode against tracing off (the variant compared), paired per round.
const ratios = MODES.filter((mode) => mode !== 'off').map((mode) =>
  ratioRow({ metric: `tracing ${mode}: server CPU µs per get_weather call, 32 in flight`, reference: 'tracing off', ours: cpu[mode], theirs: cpu.off }),
);
printRatios(ratios, 'Ratios paired per round');
writeReport(flags.out, { date: new Date().toISOString(), machine: machine(), loadAverageAtStart, loadAverageAtEnd: loadavg(), rounds: ROUNDS, calls: CALLS, cpu, ratios });
