// CPU placement for the benchmarks. On this kind of VM one sequential stdio round trip takes about
// 26 µs when the client and the server share a vCPU and 75–110 µs when they do not (the writer has
// to wake a halted vCPU). The scheduler picks the placement per process pair and changes it during
// a window, so unpinned sequential ratios mostly measure where the two processes happened to land.
// When the machine has two or more CPUs and `taskset` exists, the bench process (the client or the
// load generator) runs on CPU 0 and every server on CPU 1: the same placement for every pair, the
// one a busy two-core machine gives anyway. MCP_BENCH_PIN=0 turns it off.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

function tasksetWorks() {
  try {
    execFileSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether processes are pinned; decided once. */
export const pinning = process.env.MCP_BENCH_PIN !== '0' && availableParallelism() >= 2 && tasksetWorks();

/** Moves this process and all its threads to CPU 0; children spawned from now on start there too. */
export function pinSelf() {
  if (pinning) execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
}

/** Lets this process and the children it spawns run anywhere again (cold starts are measured so). */
export function unpinSelf() {
  if (pinning) execFileSync('taskset', ['-a', '-p', '-c', `0-${availableParallelism() - 1}`, String(process.pid)], { stdio: 'ignore' });
}

/**
 * The server spec `{ command, args, cwd }` started on CPU 1. `taskset` replaces itself with the
 * server, so the spawned pid is still the server's own (its /proc figures stay the server's).
 */
export function onServerCpu(server) {
  return pinning ? { ...server, command: 'taskset', args: ['-c', '1', server.command, ...server.args] } : server;
}

/** For reports: how processes were placed. */
export const placement = pinning ? 'client on CPU 0, servers on CPU 1 (taskset)' : 'not pinned';
