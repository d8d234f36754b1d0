#!/usr/bin/env node
// Where a bench server spends its CPU: runs it under `node --cpu-prof`, drives one tool case with
// 32 calls in flight (or --in-flight N), then prints self time by function and by file.
//
//   node bench/profile.mjs <floor|sdk|ours> <weather|search> [calls] [--in-flight N] [--top N]
//
// With 0 calls it profiles start-up: spawn, initialize, the verification calls, exit.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { StdioPeer } from './lib/client.mjs';
import { SERVERS, buildOurs } from './lib/servers.mjs';
import { loadWorkload, verifyPeer } from './lib/workload.mjs';
import { formatProfile } from './lib/cpuprofile.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '25' },
    'in-flight': { type: 'string', default: '32' },
  },
});
const [serverName = 'ours', caseName = 'weather', callsText = '50000'] = positionals;
const server = SERVERS[serverName];
const workload = loadWorkload();
const testCase = workload.cases[caseName];
if (server === undefined || testCase === undefined) {
  throw new Error(
    `usage: node bench/profile.mjs <${Object.keys(SERVERS).join('|')}> <${Object.keys(workload.cases).join('|')}> [calls]`,
  );
}
const calls = Number(callsText);
if (!Number.isInteger(calls) || calls < 0)
  throw new Error(`calls must be a whole number, got ${callsText}`);
if (serverName === 'ours' && process.env.MCP_BENCH_NO_BUILD !== '1') buildOurs(); // MCP_BENCH_NO_BUILD=1: profile the build already there

const profileDir = mkdtempSync(path.join(tmpdir(), 'mcp-gen-profile-'));
try {
  const peer = new StdioPeer({
    ...server,
    args: [
      '--cpu-prof',
      '--cpu-prof-interval',
      '100',
      '--cpu-prof-dir',
      profileDir,
      ...server.args,
    ],
  });
  await peer.initialize();
  await verifyPeer(peer, workload);
  let next = 0;
  const worker = async () => {
    while (next++ < calls) await peer.callTool(testCase.tool, testCase.args);
  };
  await Promise.all(Array.from({ length: Number(values['in-flight']) }, worker));
  await peer.close();

  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined)
    throw new Error('the server wrote no profile (did it exit cleanly when stdin closed?)');
  const profile = JSON.parse(readFileSync(path.join(profileDir, file), 'utf8'));
  process.stdout.write(
    formatProfile(profile, {
      top: Number(values.top),
      perCall: calls,
      title: `${serverName} ${caseName}: ${calls} calls`,
    }),
  );
} finally {
  rmSync(profileDir, { recursive: true, force: true });
}
