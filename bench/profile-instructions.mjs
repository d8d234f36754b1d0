#!/usr/bin/env node
// Instructions per call of a stdio bench server, counted by valgrind's callgrind: a figure that does
// not move with the machine's load, for A/B comparisons of per-call runtime work (timings on a busy
// shared machine do). Runs the server twice under callgrind, once with `calls` calls and once with
// twice as many (`--in-flight` at once, 32 by default), and prints the difference divided by calls:
// start-up, exit and the warm-up (lazy loading, JIT compilation: hundreds of millions of
// instructions, so never divide a single run by its calls) cancel out. Needs valgrind (`apt-get install valgrind`); a run takes minutes.
//
//   node bench/profile-instructions.mjs <floor|ours|path/to/main.js> [weather|search] [calls]
//                                        [--in-flight N] [--no-build] [--keep DIR] [--predictable]
//
// Counts still vary by a few per cent from run to run (the hash seed, when the GC and the JIT run,
// how stdin happens to be cut into chunks): --predictable runs node with V8's --predictable, which
// removes the first two; compare builds in alternating runs.
// With --keep, the callgrind files stay in DIR (`callgrind_annotate DIR/calls-N.out` shows where the
// instructions go: V8's builtins, the GC and node's C++ by name), each with node's perf map of its
// JIT-compiled JavaScript (`calls-N.out.map`: address, size, name) to name the `???:0x…` entries.
// A path runs another build of the bench server (a worktree of an older commit, for bisecting).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { StdioPeer } from './lib/client.mjs';
import { SERVERS, buildOurs } from './lib/servers.mjs';
import { loadWorkload, verifyPeer } from './lib/workload.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'in-flight': { type: 'string', default: '32' },
    'no-build': { type: 'boolean', default: false },
    keep: { type: 'string' },
    predictable: { type: 'boolean', default: false },
  },
});
const [serverName = 'ours', caseName = 'weather', callsText = '2000'] = positionals;
const workload = loadWorkload();
const testCase = workload.cases[caseName];
const server =
  SERVERS[serverName] ??
  (existsSync(serverName) ? { command: process.execPath, args: [path.resolve(serverName)] } : undefined);
if (server === undefined || testCase === undefined) {
  throw new Error(
    `usage: node bench/profile-instructions.mjs <floor|ours|main.js> <${Object.keys(workload.cases).join('|')}> [calls]`,
  );
}
const calls = Number(callsText);
const inFlight = Number(values['in-flight']);
if (!Number.isInteger(calls) || calls < 1) throw new Error(`calls must be a positive whole number, got ${callsText}`);
execFileSync('valgrind', ['--version'], { stdio: 'ignore' }); // fails clearly when it is missing
if (serverName === 'ours' && !values['no-build']) buildOurs();

/** Total instructions the server executes: start, initialize, the checks, `count` calls, exit. */
async function countInstructions(count) {
  const dir = values.keep ?? mkdtempSync(path.join(tmpdir(), 'mcp-gen-callgrind-'));
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `calls-${count}.out`);
  try {
    const peer = new StdioPeer({
      command: 'valgrind',
      // JIT code rewrites itself: without the check valgrind would run stale translations.
      args: [
        '--tool=callgrind',
        '--smc-check=all-non-file',
        `--callgrind-out-file=${out}`,
        server.command,
        // V8 without its randomness (hash seed) and background threads (JIT, GC): repeatable counts.
        ...(values.predictable ? ['--predictable'] : []),
        // With --keep, node names its JIT code in /tmp/perf-<pid>.map (copied beside the counts).
        ...(values.keep === undefined
          ? []
          : ['--perf-basic-prof', '--no-logfile-per-isolate', `--logfile=${out}.v8.log`]),
        ...server.args,
      ],
      cwd: server.cwd,
    });
    await peer.initialize();
    await verifyPeer(peer, workload);
    let next = 0;
    const worker = async () => {
      while (next++ < count) await peer.callTool(testCase.tool, testCase.args);
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
    // Not `peer.close()`: its kill after 2 s would cut callgrind's dump short under valgrind.
    peer.child.stdin.end();
    await peer.exited;
    const perfMap = `/tmp/perf-${peer.pid}.map`;
    if (values.keep !== undefined && existsSync(perfMap)) renameSync(perfMap, `${out}.map`);
    const summary = /^summary:\s*(\d+)/m.exec(readFileSync(out, 'utf8'));
    if (summary === null) throw new Error('callgrind wrote no summary line');
    return Number(summary[1]);
  } finally {
    if (values.keep === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

const once = await countInstructions(calls);
const twice = await countInstructions(2 * calls);
const perCall = Math.round((twice - once) / calls);
process.stdout.write(
  `${serverName} ${caseName}: ${calls} more calls, ${inFlight} in flight: ${perCall} instructions per call ` +
    `(the first ${calls} calls with start-up and exit: ${(once / 1e6).toFixed(1)} M)\n`,
);
