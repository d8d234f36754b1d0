#!/usr/bin/env node
// `npm run soak`: load with nothing lost. Three processes of the generated conformance server
// (examples/conformance) share one real redis-server (`--redis`, loopback, no persistence) behind a
// round-robin proxy that never sends two consecutive requests of a session to the same process
// (test/scale/cluster.ts's rule). 200 clients (half 2025-11-25 sessions, half 2026-07-28), each on
// its own session, run operations back to back for 2 minutes, mixing plain calls, elicitation
// rounds (the client answers a form), tasks (started, polled to their result) and cancels (a task
// cancelled while it runs). Then it prints operations sent, answered, errors by kind, lost (an
// operation still unsettled 60 s after it started, or when the run ends), latency p50/p99 per kind
// and the RSS of each process at the start (after a 30 s warm-up) and at the end.
//
//   node scripts/soak.mjs [--seconds 120] [--clients 200] [--processes 3] [--json out.json]
//                         [--memory-probe] [--heap-snapshots DIR [--snapshot-every 20]]
//
// The last two are for diagnosing memory, never for the figures: --memory-probe forces a full GC in
// each server every 10 s and prints its live heap; --heap-snapshots writes V8 heap snapshots of each
// server (after the warm-up, every --snapshot-every s, and once idle) to compare in DevTools. A
// snapshot stops its process for a second or two, so a run with them may report Redis timeouts.
//
// Bounded: the run stops sending at --seconds, waits at most 60 s for what is in flight, and the
// whole script ends (killing what it started) by --seconds + 120 s whatever happens.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { findBinary } from './system-packages.mjs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '120' },
    clients: { type: 'string', default: '200' },
    processes: { type: 'string', default: '3' },
    json: { type: 'string' },
    // Diagnostics only: each server writes a V8 heap snapshot into this folder after the warm-up,
    // every --snapshot-every seconds, and once the clients have closed their sessions.
    'heap-snapshots': { type: 'string' },
    'snapshot-every': { type: 'string', default: '20' },
    // Diagnostics only: each server forces a full GC every 10 s and logs its memory (live JS heap,
    // heap reserved, external, RSS); printed at the end beside the RSS series.
    'memory-probe': { type: 'boolean', default: false },
  },
});
const SECONDS = Number(flags.seconds);
const CLIENTS = Number(flags.clients);
const PROCESSES = Number(flags.processes);
const OP_LIMIT_MS = 60_000;
// V8 grows each process's heap to its working size in the first half minute of load: RSS "at the
// start" is read after that (the 10 s series printed beside it shows the whole curve).
const WARMUP_MS = Math.min(30_000, (SECONDS * 1000) / 4);
// The clients start over the first 5 s (25 ms apart at 200), as real ones arrive, not in one instant.
const RAMP_MS = Math.min(5000, (SECONDS * 1000) / 10);

const children = [];
const stopAll = () => {
  for (const child of children.reverse()) child.kill('SIGKILL');
};
const hardStop = setTimeout(() => {
  console.error(`soak: still running ${SECONDS + 120} s after the start; stopping everything`);
  stopAll();
  process.exit(1);
}, (SECONDS + 120) * 1000);
hardStop.unref();
process.on('exit', stopAll);

// ---- build and start ------------------------------------------------------------------------------

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
}
run(process.execPath, ['bin/mcp-gen.js', 'regenerate-self', '--examples', '--quiet']);
run(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'examples/conformance/server']);
const { openSession, startToolTask, TaskCancelledError } = await import(join(root, 'dist/runtime/client/index.js'));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function started(child, pattern, what) {
  return new Promise((resolve, reject) => {
    let text = '';
    const seen = (chunk) => {
      text += chunk.toString();
      const match = pattern.exec(text);
      if (match) resolve(match);
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('exit', (code) => reject(new Error(`${what} exited (${code}) before starting: ${text}`)));
  });
}

const redisBinary = findBinary('redis-server');
if (redisBinary === undefined) throw new Error('redis-server is missing: node scripts/system-packages.mjs installs it');
const redisPort = await freePort();
const redis = spawn(redisBinary, ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
children.push(redis);
await started(redis, /Ready to accept connections/, 'redis-server');
const redisUrl = `redis://127.0.0.1:${redisPort}`;

const main = join(root, 'examples/conformance/server/build/main.js');
const env = { ...process.env, MCP_STATE_SECRET: 'one secret for the soak cluster' };
const MEMORY_PROBE = `setInterval(() => {
  globalThis.gc();
  const m = process.memoryUsage();
  const mb = (b) => Math.round(b / 104857.6) / 10;
  process.stderr.write('memory-probe ' + [m.heapUsed, m.heapTotal, m.external, m.rss].map(mb).join(' ') + '\\n');
}, 10000).unref();`;
const servers = await Promise.all(
  Array.from({ length: PROCESSES }, async () => {
    const diagnostics = flags['heap-snapshots'] ? [`--heapsnapshot-signal=SIGUSR2`, `--diagnostic-dir=${flags['heap-snapshots']}`] : [];
    if (flags['memory-probe']) diagnostics.push('--expose-gc', '--import', `data:text/javascript,${encodeURIComponent(MEMORY_PROBE)}`);
    const child = spawn(process.execPath, [...diagnostics, main, '--http', '--port', '0', '--redis', redisUrl], { stdio: ['ignore', 'pipe', 'pipe'], env });
    children.push(child);
    const [, url] = await started(child, /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/, 'server');
    let log = '';
    const memory = [];
    child.stderr.on('data', (chunk) => {
      const text = chunk.toString();
      for (const [, line] of text.matchAll(/^memory-probe (.*)$/gm)) memory.push(line.replaceAll(' ', '/'));
      log = (log + text).slice(-20_000);
    });
    return { child, url: new URL(url), log: () => log, memory };
  }),
);

// Per session, each request goes to the process after the one its last request went to.
let proxied = 0;
const last = new Map();
const proxy = createServer((incoming, outgoing) => {
  proxied++;
  const session = String(incoming.headers['mcp-session-id'] ?? '');
  const by = ((last.get(session) ?? -1) + 1) % servers.length;
  last.set(session, by);
  const target = servers[by].url;
  const chunks = [];
  incoming.on('data', (chunk) => chunks.push(chunk));
  incoming.on('end', () => {
    const body = Buffer.concat(chunks);
    const forward = (first) => {
      const forwarded = httpRequest(target, { method: incoming.method, headers: { ...incoming.headers, host: target.host }, agent: proxyAgent }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      forwarded.on('error', (error) => {
        // The keep-alive race with the backend (it closed the idle connection as this went out): once more.
        if (first && forwarded.reusedSocket && error.code === 'ECONNRESET') forward(false);
        else outgoing.destroy();
      });
      outgoing.on('close', () => forwarded.destroy());
      forwarded.end(body);
    };
    forward(true);
  });
});
const { Agent } = await import('node:http');
const proxyAgent = new Agent({ keepAlive: true, maxSockets: 512 });
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const proxyUrl = `http://127.0.0.1:${proxy.address().port}/mcp`;

// ---- the load -------------------------------------------------------------------------------------

const KINDS = ['plain', 'elicitation', 'task', 'cancel'];
const stats = Object.fromEntries(KINDS.map((kind) => [kind, { sent: 0, answered: 0, latencies: [] }]));
const errors = new Map();
let lost = 0;
const pending = new Set();

function pick(i) {
  const r = Math.random();
  void i;
  return r < 0.45 ? 'plain' : r < 0.65 ? 'elicitation' : r < 0.85 ? 'task' : 'cancel';
}

async function operation(session, kind, n) {
  switch (kind) {
    case 'plain': {
      const result = await session.request('tools/call', { name: 'greet', arguments: { name: `n${n}` } }, { timeoutMs: 30_000 });
      if (!JSON.stringify(result).includes(`n${n}`)) throw new Error('wrong answer');
      return;
    }
    case 'elicitation': {
      const result = await session.request('tools/call', { name: 'test_elicitation', arguments: { message: `round ${n}` } }, { timeoutMs: 30_000 });
      if (!JSON.stringify(result).includes(`soak${n}`)) throw new Error('the elicitation answer did not come back');
      return;
    }
    case 'task': {
      const handle = await startToolTask(session, { name: 'slow_compute' }, { seconds: 0.3, label: `t${n}` }, { timeoutMs: 30_000 });
      const result = await handle.result({ timeoutMs: 30_000 });
      if (!JSON.stringify(result).includes(`Computed t${n} in 0.3s`)) throw new Error('wrong task result');
      return;
    }
    case 'cancel': {
      const handle = await startToolTask(session, { name: 'slow_compute' }, { seconds: 60, label: `c${n}` }, { timeoutMs: 30_000 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      await handle.cancel({ timeoutMs: 30_000 });
      const outcome = await handle.result({ timeoutMs: 30_000 }).then(
        () => new Error('a cancelled task completed'),
        (error) => error,
      );
      if (!(outcome instanceof TaskCancelledError)) throw outcome;
      return;
    }
  }
}

function errorKind(error) {
  const name = error?.name ?? 'Error';
  const message = String(error?.message ?? error).replace(/\d+/g, 'N').replace(/"[^"]*"/g, '"…"');
  return `${name}: ${message.slice(0, 90)}`;
}

let counter = 0;
let stopAt = Infinity;

async function client(index) {
  await new Promise((resolve) => setTimeout(resolve, (index * RAMP_MS) / CLIENTS));
  const era = index % 2 === 0 ? '2025-11-25' : '2026-07-28';
  let session;
  try {
    session = await openSession({
      url: proxyUrl,
      protocolVersions: [era],
      clientInfo: { name: `soak-${index}`, version: '1' },
      handlers: { elicitation: (params) => ({ action: 'accept', content: { username: `soak${/round (\d+)/.exec(params.message)?.[1]}`, email: 'soak@example.com' } }) },
    });
  } catch (error) {
    const kind = `connect: ${errorKind(error)}`;
    errors.set(kind, (errors.get(kind) ?? 0) + 1);
    return;
  }
  while (Date.now() < stopAt) {
    const kind = pick(index);
    const n = counter++;
    const entry = stats[kind];
    entry.sent++;
    const began = performance.now();
    const op = operation(session, kind, n);
    pending.add(op);
    let timer;
    const limit = new Promise((resolve) => (timer = setTimeout(() => resolve('lost'), OP_LIMIT_MS)));
    const outcome = await Promise.race([op.then(() => 'ok', (error) => error), limit]);
    clearTimeout(timer);
    pending.delete(op);
    if (outcome === 'ok') {
      entry.answered++;
      entry.latencies.push(performance.now() - began);
    } else if (outcome === 'lost') lost++;
    else {
      const key = `${kind}: ${errorKind(outcome)}`;
      errors.set(key, (errors.get(key) ?? 0) + 1);
    }
  }
  await session.close().catch(() => {});
}

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const rss = (pid) => Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
const cpu = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

const startedAt = Date.now();
stopAt = startedAt + SECONDS * 1000;
console.log(`soak: ${CLIENTS} clients, ${PROCESSES} processes, ${SECONDS} s, Redis ${redisUrl}, proxy ${proxyUrl}`);
const clients = Array.from({ length: CLIENTS }, (_, i) => client(i));
// RSS of each process every 10 s, to see whether it levels off.
const rssSeries = servers.map(() => []);
const sampler = setInterval(() => servers.forEach((s, i) => rssSeries[i].push(Number(mb(rss(s.child.pid))))), 10_000);
await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
const rssStart = servers.map((s) => rss(s.child.pid));
const cpuStart = servers.map((s) => cpu(s.child.pid));
const snapshot = () => servers.forEach((s) => s.child.kill('SIGUSR2'));
let snapshots;
if (flags['heap-snapshots']) {
  snapshot();
  snapshots = setInterval(snapshot, Number(flags['snapshot-every']) * 1000);
}
await Promise.all(clients);
clearInterval(sampler);
clearInterval(snapshots);
const rssEnd = servers.map((s) => rss(s.child.pid));
const cpuEnd = servers.map((s) => cpu(s.child.pid));
lost += pending.size;
const wall = (Date.now() - startedAt) / 1000;

// ---- the report -----------------------------------------------------------------------------------

const quantile = (values, q) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const all = KINDS.flatMap((kind) => stats[kind].latencies);
const sent = KINDS.reduce((sum, kind) => sum + stats[kind].sent, 0);
const answered = KINDS.reduce((sum, kind) => sum + stats[kind].answered, 0);
const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
const report = {
  clients: CLIENTS,
  processes: PROCESSES,
  seconds: SECONDS,
  wallSeconds: wall,
  httpRequests: proxied,
  sent,
  answered,
  errors: errorCount,
  lost,
  p50Ms: quantile(all, 0.5),
  p99Ms: quantile(all, 0.99),
  kinds: Object.fromEntries(KINDS.map((kind) => [kind, { sent: stats[kind].sent, answered: stats[kind].answered, p50Ms: quantile(stats[kind].latencies, 0.5), p99Ms: quantile(stats[kind].latencies, 0.99) }])),
  errorsByKind: Object.fromEntries(errors),
  rss: servers.map((s, i) => ({ pid: s.child.pid, startMB: Number(mb(rssStart[i])), endMB: Number(mb(rssEnd[i])), change: rssEnd[i] / rssStart[i] - 1, cpuSeconds: cpuEnd[i] - cpuStart[i] })),
  alive: servers.map((s) => s.child.exitCode === null),
  rssEvery10sMB: rssSeries,
};

console.log(`\nwall ${wall.toFixed(1)} s; ${proxied} HTTP requests through the proxy (${(proxied / wall).toFixed(0)}/s)`);
console.log(`operations sent ${sent}, answered ${answered}, errors ${errorCount}, lost ${lost}`);
console.log(`latency p50 ${report.p50Ms.toFixed(1)} ms, p99 ${report.p99Ms.toFixed(1)} ms`);
console.log('\n| kind | sent | answered | p50 ms | p99 ms |\n| --- | ---: | ---: | ---: | ---: |');
for (const kind of KINDS) {
  const k = report.kinds[kind];
  console.log(`| ${kind} | ${k.sent} | ${k.answered} | ${k.p50Ms.toFixed(1)} | ${k.p99Ms.toFixed(1)} |`);
}
console.log('\nerrors by kind:' + (errors.size === 0 ? ' none' : ''));
for (const [kind, count] of [...errors].sort((a, b) => b[1] - a[1])) console.log(`  ${count} × ${kind}`);
console.log('\n| process | RSS after 30 s (warm-up) | RSS end | change | CPU s (after warm-up) |\n| --- | ---: | ---: | ---: | ---: |');
report.rss.forEach((r, i) => console.log(`| ${i + 1} | ${r.startMB} MB | ${r.endMB} MB | ${(r.change * 100).toFixed(1)} % | ${r.cpuSeconds.toFixed(1)} |`));
console.log('\nRSS every 10 s (MB):');
rssSeries.forEach((series, i) => console.log(`  process ${i + 1}: ${series.join(' ')}`));
if (flags['memory-probe']) {
  console.log('\nAfter a forced full GC every 10 s (MB): live JS heap / heap reserved / external / RSS');
  servers.forEach((s, i) => console.log(`  process ${i + 1}: ${s.memory.join('  ')}`));
}
console.log(`\nprocesses still running: ${report.alive.filter(Boolean).length} of ${PROCESSES}`);
if (flags.json) writeFileSync(flags.json, JSON.stringify(report, null, 2) + '\n');
if (flags['heap-snapshots']) {
  // Idle now (every session closed): what is still held was kept by the load.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  snapshot();
  await new Promise((resolve) => setTimeout(resolve, 15_000));
}

proxy.closeAllConnections();
proxy.close();
stopAll();
clearTimeout(hardStop);
process.exit(lost === 0 && report.alive.every(Boolean) ? 0 : 1);
