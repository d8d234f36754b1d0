#!/usr/bin/env node
// Where a bench server spends its CPU: runs it under `node --cpu-prof`, drives one tool case with
// 32 calls in flight, then prints self time by function and by file from the V8 profile.
//
//   node bench/profile.mjs <floor|sdk|ours> <weather|search> [calls] [--top N]
//
// With 0 calls it profiles start-up: spawn, initialize, the verification calls, exit.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { StdioPeer } from './lib/client.mjs';
import { SERVERS, buildOurs } from './lib/servers.mjs';
import { loadWorkload, verifyPeer } from './lib/workload.mjs';
import { repoRoot } from './lib/paths.mjs';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' } } });
const [serverName = 'ours', caseName = 'weather', callsText = '50000'] = positionals;
const server = SERVERS[serverName];
const workload = loadWorkload();
const testCase = workload.cases[caseName];
if (server === undefined || testCase === undefined) {
  throw new Error(`usage: node bench/profile.mjs <${Object.keys(SERVERS).join('|')}> <${Object.keys(workload.cases).join('|')}> [calls]`);
}
const calls = Number(callsText);
if (!Number.isInteger(calls) || calls < 0) throw new Error(`calls must be a whole number, got ${callsText}`);
if (serverName === 'ours') buildOurs();

const profileDir = mkdtempSync(path.join(tmpdir(), 'mcp-gen-profile-'));
try {
  const peer = new StdioPeer({ ...server, args: ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', profileDir, ...server.args] });
  await peer.initialize();
  await verifyPeer(peer, workload);
  let next = 0;
  const worker = async () => {
    while (next++ < calls) await peer.callTool(testCase.tool, testCase.args);
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  await peer.close();

  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error('the server wrote no profile (did it exit cleanly when stdin closed?)');
  printProfile(JSON.parse(readFileSync(path.join(profileDir, file), 'utf8')), Number(values.top));
} finally {
  rmSync(profileDir, { recursive: true, force: true });
}

/** Self time per function and per file, from the profile's samples and time deltas. */
function printProfile(profile, top) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map();
  const byFile = new Map();
  for (const [id, micros] of selfMicros) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const where = url === '' ? '' : path.relative(repoRoot, url.replace(/^file:\/\//, ''));
    const fn = `${where || '(native)'}:${lineNumber + 1} ${functionName || '(anonymous)'}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros);
    const fileKey = where || `(${functionName || 'native'})`;
    byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + micros);
  }
  const show = (title, map) => {
    process.stdout.write(`\n${title}\n`);
    for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      process.stdout.write(`${((100 * micros) / total).toFixed(1).padStart(5)}%  ${(micros / Math.max(calls, 1)).toFixed(2).padStart(7)} µs/call  ${key}\n`);
    }
  };
  process.stdout.write(`${serverName} ${caseName}: ${calls} calls, ${(total / 1000).toFixed(0)} ms sampled on the main thread\n`);
  show('self time by file', byFile);
  show('self time by function', byFunction);
}
