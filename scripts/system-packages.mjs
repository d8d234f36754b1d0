#!/usr/bin/env node
// Provides the system programs the test suite runs as real peers (never mocks, never skipped):
// each is looked up on PATH and in Debian's install folders; a missing one is installed from its
// Debian package when this user may install packages (root, or sudo without a password).
// Otherwise the tests cannot run honestly, so this prints one line saying what to install and
// exits 1. `npm run test:all` runs it first (the fast tier, `npm test`, needs none of them);
// `node scripts/system-packages.mjs --print` lists what it found.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** binary → the Debian package that provides it. */
export const SYSTEM_PACKAGES = [
  { binary: 'redis-server', pkg: 'redis-server', usedBy: 'test/server/redis.test.ts, test/tasks/redis-tasks.test.ts' },
  { binary: 'chromium', pkg: 'chromium', usedBy: 'test/docs/browser.test.ts, test/browser/vite-client.test.ts' },
];

const SYSTEM_DIRS = ['/usr/bin', '/usr/local/bin', '/usr/sbin'];

export function findBinary(name) {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...SYSTEM_DIRS];
  for (const dir of dirs) {
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

function run(argv) {
  const result = spawnSync(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  return result.status === 0 ? undefined : (result.stderr || result.error?.message || `exit ${result.status}`).trim();
}

function installer() {
  if (typeof process.getuid === 'function' && process.getuid() === 0) return [];
  if (findBinary('sudo') !== undefined && run(['sudo', '-n', 'true']) === undefined) return ['sudo', '-n'];
  return undefined;
}

function main() {
  const missing = SYSTEM_PACKAGES.filter(({ binary }) => findBinary(binary) === undefined);
  if (process.argv.includes('--print')) {
    for (const { binary } of SYSTEM_PACKAGES) console.log(`${binary}: ${findBinary(binary) ?? 'absent'}`);
    return 0;
  }
  if (missing.length === 0) return 0;
  const names = missing.map(({ pkg }) => pkg);
  const prefix = installer();
  if (prefix === undefined || findBinary('apt-get') === undefined) {
    console.error(
      `The tests need ${names.join(', ')} (used by ${missing.map(({ usedBy }) => usedBy).join(', ')}): ` +
        `install the Debian package${names.length > 1 ? 's' : ''} (apt-get install -y ${names.join(' ')}), or run the tests as a user who may.`,
    );
    return 1;
  }
  console.error(`installing ${names.join(', ')} (Debian) for the tests`);
  process.env.DEBIAN_FRONTEND = 'noninteractive';
  const failed =
    run([...prefix, 'apt-get', 'update', '-qq']) ??
    run([...prefix, 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...names]);
  const still = missing.filter(({ binary }) => findBinary(binary) === undefined);
  if (still.length > 0) {
    console.error(`could not install ${still.map(({ pkg }) => pkg).join(', ')}: ${failed ?? 'the binary is still absent'}`);
    return 1;
  }
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main();
