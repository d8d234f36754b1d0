#!/usr/bin/env node
// What auth on costs our HTTP server per call, and how much of it is the resource server's own
// code: server CPU per tools/call (from /proc) for three clients taking turns slice by slice:
//   off      the server without auth, requests as bench/http.mjs sends them;
//   +header  the same server and requests plus the `Authorization: Bearer <JWT>` header it ignores
//            (what node:http alone pays to receive the ~800 bytes of a token);
//   auth     the server as an OAuth resource server, every call reusing that token.
// auth/off is the ratio bench/http.mjs reports; auth/+header is what remains for our code.
//
//   node bench/auth-overhead.mjs [--rounds 5] [--calls 8000] [--connections 16] [--case weather] [--out file.json]
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startIssuer } from './lib/issuer.mjs';
import { repoRoot } from './lib/paths.mjs';
import { pinSelf } from './lib/pin.mjs';
import { HttpPeer, startHttpServer } from './lib/http-peer.mjs';
import { cpuTimes } from './lib/proc.mjs';
import { buildOurs } from './lib/servers.mjs';
import { median } from './lib/stats.mjs';
import { loadWorkload } from './lib/workload.mjs';
import { machine, writeReport } from './lib/report.mjs';
import { printRatios, ratioRow } from './lib/ratios.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    calls: { type: 'string', default: '8000' },
    connections: { type: 'string', default: '16' },
    case: { type: 'string', default: 'weather' },
    out: { type: 'string', default: path.join(repoRoot, 'bench', 'results', 'auth-overhead.json') },
  },
});
const ROUNDS = Number(values.rounds);
const CALLS = Number(values.calls);
const CONNECTIONS = Number(values.connections);
const SLICES = 4;
const testCase = loadWorkload().cases[values.case];
if (testCase === undefined) throw new Error(`no workload case ${values.case}`);

buildOurs();
pinSelf();
const issuer = await startIssuer();
const main = path.join(repoRoot, 'bench', 'server', 'build', 'main.js');

function start(extraArgs) {
  return startHttpServer(process.execPath, [main, '--http', '--port', '0', ...extraArgs], 'the server');
}

/** A bench/lib/http-peer.mjs client that also measures the server's CPU per call. */
class Peer extends HttpPeer {
  constructor(server, mode, withToken) {
    super({ server: 'ours', url: server.url, mode, connections: CONNECTIONS, token: withToken ? issuer.token : undefined, stateless2026: true });
    this.process = server;
  }

  /** Server CPU µs per call over `calls` calls. */
  async slice(calls) {
    const pid = this.process.child.pid;
    let issued = 0;
    const before = cpuTimes(pid);
    const worker = async () => {
      while (issued++ < calls) await this.call(testCase.tool, testCase.args);
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
    const after = cpuTimes(pid);
    return after.user + after.system - before.user - before.system;
  }
}

const off = await start([]);
const on = await start(['--auth-issuer', issuer.issuer, '--auth-jwks', issuer.jwksUri, '--resource', issuer.resource]);
const CLIENTS = { off: [off, false], '+header': [off, true], auth: [on, true] };
const load = [loadavg()[0]];
const loadAverageAtStart = loadavg();
const ratios = [];
try {
  for (const mode of ['session', 'stateless']) {
    const peers = {};
    for (const [name, [server, withToken]] of Object.entries(CLIENTS)) {
      peers[name] = new Peer(server, mode, withToken);
      await peers[name].open();
      await peers[name].slice(1000); // warm-up (and the token's first verification)
    }
    const perRound = { off: [], '+header': [], auth: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const names = Object.keys(CLIENTS);
      const order = names.map((_, i) => names[(i + round) % names.length]);
      const seconds = { off: 0, '+header': 0, auth: 0 };
      for (let turn = 0; turn < SLICES; turn++) for (const name of order) seconds[name] += await peers[name].slice(CALLS / SLICES);
      for (const name of names) perRound[name].push((seconds[name] * 1e6) / CALLS);
    }
    load.push(loadavg()[0]);
    const ratio = (a, b) => median(perRound[a].map((v, i) => v / perRound[b][i]));
    const us = (name) => median(perRound[name]).toFixed(1);
    console.log(
      `${values.case} ${mode}, ${CONNECTIONS} conn, ${ROUNDS} rounds x ${CALLS} calls: server CPU µs/call off ${us('off')}, +header ${us('+header')}, auth ${us('auth')}; ` +
        `auth/off ${ratio('auth', 'off').toFixed(2)}x, +header/off ${ratio('+header', 'off').toFixed(2)}x, auth/+header ${ratio('auth', '+header').toFixed(2)}x ` +
        `(per round auth/off: ${perRound.auth.map((v, i) => (v / perRound.off[i]).toFixed(2)).join(' ')})`,
    );
    for (const peer of Object.values(peers)) peer.agent.destroy();
    // Auth on and the header alone against auth off (the variants compared), paired per round.
    for (const [name, reference] of [['auth', 'off'], ['+header', 'off'], ['auth', '+header']]) {
      ratios.push(ratioRow({ metric: `${values.case} ${mode}, ${CONNECTIONS} conn: server CPU µs/call, ${name}`, reference, ours: perRound[name], theirs: perRound[reference] }));
    }
  }
  console.log(`load average (1 min) during the run: ${load.map((l) => l.toFixed(2)).join(', ')}`);
  printRatios(ratios, 'Ratios paired per round');
  writeReport(values.out, { date: new Date().toISOString(), machine: machine(), loadAverageAtStart, loadAverageAtEnd: loadavg(), rounds: ROUNDS, calls: CALLS, ratios });
} finally {
  off.child.kill();
  on.child.kill();
  await issuer.close();
}
