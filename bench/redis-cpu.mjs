#!/usr/bin/env node
/**
 * `node bench/redis-cpu.mjs [--rounds 3] [--calls 1000] [--tasks 150]`: the server CPU of one call
 * on one process with `--redis` (sessions, events and tasks on a real redis-server on loopback)
 * against the same process without it (everything in memory), for the generated conformance
 * server (examples/conformance). Three workloads: a plain call (`greet`) in a 2025-11-25 session, a
 * plain call at 2026-07-28, and a 2026-07-28 task round (`slow_compute` for 10 ms, started, polled
 * until completed, its result read). Each round runs both servers in turn; CPU is the server
 * process's utime + stime from /proc, divided by the operations; redis-server's own CPU is reported
 * beside it. The ratio is the median of the rounds' ratios. Last, a pass that no CPU figure comes
 * from counts the Redis commands each operation costs (MONITOR; a MULTI counts once, commands a
 * script runs inside Redis not at all): each is a round trip, the steady figure on a busy machine.
 * Needs `npm run build` first.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cpuTimes } from './lib/proc.mjs';
import { median } from './lib/stats.mjs';
import { repoRoot } from './lib/paths.mjs';
import { startRedisServer } from '../scripts/redis-server.mjs';
import { loadavg } from 'node:os';
import { machine, writeReport } from './lib/report.mjs';
import { printRatios, ratioRow } from './lib/ratios.mjs';

const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    calls: { type: 'string', default: '1000' },
    tasks: { type: 'string', default: '150' },
    out: { type: 'string', default: join(repoRoot, 'bench', 'results', 'redis-cpu.json') },
  },
});
const loadAverageAtStart = loadavg();
const ROUNDS = Number(flags.rounds);
const CALLS = Number(flags.calls);
const TASKS = Number(flags.tasks);
const PARALLEL = 8;

spawnSync(process.execPath, ['bin/mcp-gen.js', 'regenerate-self', '--examples', '--quiet'], { cwd: repoRoot, stdio: 'inherit' });
spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'examples/conformance/server'], { cwd: repoRoot, stdio: 'inherit' });
const { openSession, startToolTask } = await import(join(repoRoot, 'dist/runtime/client/index.js'));

const children = [];
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));

function waitFor(child, pattern) {
  return new Promise((resolve, reject) => {
    let text = '';
    const seen = (chunk) => {
      text += chunk;
      const match = pattern.exec(text);
      if (match) resolve(match);
    };
    child.stdout?.on('data', seen);
    child.stderr.on('data', seen);
    child.on('exit', (code) => reject(new Error(`exited (${code}): ${text}`)));
  });
}

const { child: redis, url: redisUrl } = await startRedisServer();
children.push(redis);

async function startServer(withRedis) {
  const main = join(repoRoot, 'examples/conformance/server/build/main.js');
  const child = spawn(process.execPath, [main, '--http', '--port', '0', ...(withRedis ? ['--redis', redisUrl] : [])], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  const [, url] = await waitFor(child, /listening on (http:\/\/\S+)/);
  return { child, url };
}

const cpuOf = (pid) => {
  const { user, system } = cpuTimes(pid);
  return user + system;
};

async function inParallel(count, once) {
  let next = 0;
  await Promise.all(Array.from({ length: PARALLEL }, async () => {
    while (next < count) await once(next++);
  }));
}

const WORKLOADS = {
  'plain call, 2025-11-25 session': { count: CALLS, era: '2025-11-25', once: (session, i) => session.request('tools/call', { name: 'greet', arguments: { name: `n${i}` } }) },
  'plain call, 2026-07-28': { count: CALLS, era: '2026-07-28', once: (session, i) => session.request('tools/call', { name: 'greet', arguments: { name: `n${i}` } }) },
  'task round, 2026-07-28': {
    count: TASKS,
    era: '2026-07-28',
    once: async (session, i) => {
      const handle = await startToolTask(session, { name: 'slow_compute' }, { seconds: 0.01, label: `t${i}` }, { pollIntervalMs: 20, maxPollIntervalMs: 20 });
      await handle.result();
    },
  },
};

const results = Object.fromEntries(Object.keys(WORKLOADS).map((name) => [name, { memory: [], redis: [], redisServer: [], ratio: [] }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, workload] of Object.entries(WORKLOADS)) {
    const perCall = {};
    // The order alternates per round, so a burst of other work hits both.
    for (const mode of round % 2 === 0 ? ['memory', 'redis'] : ['redis', 'memory']) {
      const server = await startServer(mode === 'redis');
      const session = await openSession({ url: server.url, protocolVersions: [workload.era] });
      await inParallel(Math.min(100, workload.count), (i) => workload.once(session, i)); // warm-up
      const before = cpuOf(server.child.pid);
      const redisBefore = cpuOf(redis.pid);
      await inParallel(workload.count, (i) => workload.once(session, i));
      perCall[mode] = ((cpuOf(server.child.pid) - before) / workload.count) * 1e6;
      if (mode === 'redis') results[name].redisServer.push(((cpuOf(redis.pid) - redisBefore) / workload.count) * 1e6);
      await session.close();
      server.child.kill('SIGKILL');
    }
    results[name].memory.push(perCall.memory);
    results[name].redis.push(perCall.redis);
    results[name].ratio.push(perCall.redis / perCall.memory);
    console.error(`round ${round + 1}: ${name}: memory ${perCall.memory.toFixed(0)} µs, redis ${perCall.redis.toFixed(0)} µs`);
  }
}

/** Redis commands per operation of `workload` on a --redis server, by name (see above). */
async function commandsPerOp(workload) {
  const server = await startServer(true);
  const session = await openSession({ url: server.url, protocolVersions: [workload.era] });
  const count = Math.min(100, workload.count);
  await inParallel(count, (i) => workload.once(session, i)); // warm-up
  const { createClient } = await import('redis');
  const monitor = createClient({ url: redisUrl });
  await monitor.connect();
  const seen = new Map();
  let inMulti = false;
  await monitor.monitor((line) => {
    if (/\[\d+ lua\]/.test(line)) return;
    const command = /\] "([^"]+)"/.exec(line)?.[1]?.toLowerCase();
    if (command === undefined || command === 'exec') return void (inMulti = false);
    if (inMulti) return;
    if (command === 'multi') inMulti = true;
    seen.set(command, (seen.get(command) ?? 0) + 1);
  });
  await inParallel(count, (i) => workload.once(session, i));
  await new Promise((resolve) => setTimeout(resolve, 200));
  await monitor.close();
  await session.close();
  server.child.kill('SIGKILL');
  const total = [...seen.values()].reduce((a, b) => a + b, 0);
  const kinds = [...seen].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} ${(n / count).toFixed(2)}`);
  return `${(total / count).toFixed(2)} (${kinds.join(', ')})`;
}
const commands = {};
for (const [name, workload] of Object.entries(WORKLOADS)) commands[name] = await commandsPerOp(workload);

console.log(`\n| workload | in memory: server CPU per op | --redis: server CPU per op | ratio (median of ${ROUNDS}) | redis-server CPU per op | Redis commands per op |`);
console.log('| --- | ---: | ---: | ---: | ---: | --- |');
for (const [name, r] of Object.entries(results)) {
  console.log(`| ${name} | ${median(r.memory).toFixed(0)} µs | ${median(r.redis).toFixed(0)} µs | ${median(r.ratio).toFixed(2)}x | ${median(r.redisServer).toFixed(0)} µs | ${commands[name]} |`);
}
// --redis against the same server in memory (the variant compared), paired per round.
const ratios = Object.entries(results).map(([name, r]) => ratioRow({ metric: `${name}: server CPU µs per op with --redis`, reference: 'in memory', ours: r.redis, theirs: r.memory }));
printRatios(ratios, 'Ratios paired per round');
writeReport(flags.out, { date: new Date().toISOString(), machine: machine(), loadAverageAtStart, loadAverageAtEnd: loadavg(), rounds: ROUNDS, results, commands, ratios });
process.exit(0);
