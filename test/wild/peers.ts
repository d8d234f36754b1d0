/**
 * The pinned peers of the wild suite (peers/package.json and its lock): the real clients and
 * servers, and the Node 22 binary several of them need. Installed once per machine with `npm ci`,
 * shared by both test files of the suite (a lock folder keeps two workers from installing at once).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../client/support.js';
import { npmWithRetry } from '../support/npm-retry.js';

export const peersDir = join(repoRoot, 'test', 'wild', 'peers');
/** Node 22 from npm (the `node` package): mcporter, mcp-remote and the SDK 2 clients need it. */
export const node22 = join(peersDir, 'node_modules', 'node', 'bin', 'node');

const installed = join(peersDir, 'node_modules', '.package-lock.json');
const lock = join(peersDir, '.installing');

/** Whether node_modules holds what the lock file pins (npm writes .package-lock.json last). */
function current(): boolean {
  if (!existsSync(installed) || !existsSync(node22)) return false;
  return statSync(installed).mtimeMs >= statSync(join(peersDir, 'package-lock.json')).mtimeMs && readFileSync(installed, 'utf8').includes('"node_modules/mcporter"');
}

export async function installPeers(): Promise<void> {
  for (;;) {
    if (current()) return;
    try {
      mkdirSync(lock);
    } catch {
      // The other test file of the suite is installing: wait for it.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
      continue;
    }
    try {
      if (!current()) await npmWithRetry(['ci', '--prefix', peersDir, '--omit=peer', '--no-audit', '--no-fund']);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** Runs jobs at most `width` at a time (the machine has two cores and the peers mostly wait). */
export function limiter(width: number): <T>(job: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    while (running >= width) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await job();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
