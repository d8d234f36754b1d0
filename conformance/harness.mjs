/**
 * The conformance harness shared by the server and client runners: installs this folder's
 * dependencies when needed, runs `@modelcontextprotocol/conformance` with the Node 22 binary from
 * npm (the project itself stays on Node 20), and turns the suite's checks.json files into one verdict
 * per scenario.
 *
 * Verdict rules (conformance.md, conformance-2026.md B.1): a server scenario passes with at least one
 * SUCCESS and no FAILURE; a client scenario also fails on any WARNING; a scenario that recorded no
 * checks, or that the suite listed but never ran, fails.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = dirname(HERE);
export const NODE22 = join(HERE, 'node_modules', 'node', 'bin', 'node');

/** The suite versions this folder installs, by the alias in package.json. */
export const SUITES = {
  '0.1': join(HERE, 'node_modules', 'conformance-0.1', 'dist', 'index.js'),
  '0.2': join(HERE, 'node_modules', 'conformance-0.2', 'dist', 'index.js'),
};

/** `npm ci --prefix conformance` unless the Node 22 binary and both suites are there. */
export function ensureInstalled() {
  if (existsSync(NODE22) && Object.values(SUITES).every((path) => existsSync(path))) return;
  console.log('Installing the conformance harness (npm ci --prefix conformance)…');
  const result = spawnSync('npm', ['ci', '--prefix', HERE, '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm ci --prefix conformance failed');
  if (!existsSync(NODE22)) throw new Error(`No Node 22 binary at ${NODE22} after npm ci`);
}

/** A free loopback port (bound and released; good enough for a test run). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs the suite's CLI with Node 22; resolves with its exit code and output. */
export function runSuite(suite, args, { timeoutMs = 15 * 60 * 1000, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(NODE22, [SUITES[suite], ...args], {
      cwd: HERE,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The scenario names `list` prints for a mode (`server` or `client`), with their tags. */
export async function listScenarios(suite, mode, specVersion) {
  const args = ['list', `--${mode}`];
  if (specVersion !== undefined) args.push('--spec-version', specVersion);
  const { output } = await runSuite(suite, args);
  const scenarios = [];
  let inMode = false;
  for (const line of output.split('\n')) {
    if (/^Server scenarios/.test(line)) inMode = mode === 'server';
    else if (/^Client scenarios/.test(line)) inMode = mode === 'client';
    const match = /^\s+- (\S+)(?: \[([^\]]*)\])?/.exec(line);
    if (inMode && match) scenarios.push({ name: match[1], tags: match[2] ? match[2].split(',') : [] });
  }
  return scenarios;
}

export function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** checks.json of every scenario under `dir`, keyed by scenario name (`server-`/timestamp stripped). */
export function readChecks(dir, prefix = '', byScenario = new Map()) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = join(dir, entry.name, 'checks.json');
    // A scenario named `auth/x` writes its results under `auth/`.
    if (!existsSync(file)) {
      if (prefix === '') readChecks(join(dir, entry.name), `${entry.name}/`, byScenario);
      continue;
    }
    const name = prefix + entry.name.replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '').replace(/^server-/, '');
    let checks;
    try {
      checks = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      checks = [{ id: 'checks-json', status: 'FAILURE', errorMessage: 'checks.json is not JSON' }];
    }
    byScenario.set(name, [...(byScenario.get(name) ?? []), ...checks]);
  }
  return byScenario;
}

/** One scenario's verdict from its checks. */
export function verdict(checks, mode) {
  const count = (status) => (checks ?? []).filter((c) => c.status === status).length;
  const success = count('SUCCESS');
  const failure = count('FAILURE');
  const warning = count('WARNING');
  let passed = checks !== undefined && success > 0 && failure === 0;
  if (mode === 'client' && warning > 0) passed = false;
  let why = '';
  if (checks === undefined) why = 'not run';
  else if (checks.length === 0) why = 'no checks';
  else if (success === 0 && failure === 0) why = 'no SUCCESS or FAILURE';
  return { passed, success, failure, warning, why };
}

/**
 * Prints one line per scenario (failed checks named) and a count line for the run; returns the
 * number of scenarios that failed.
 */
export function report(title, expected, checksByScenario, mode) {
  console.log(`\n== ${title}`);
  let failed = 0;
  for (const name of expected) {
    const checks = checksByScenario.get(name);
    const v = verdict(checks, mode);
    if (!v.passed) failed++;
    const detail = `${v.success} ok, ${v.failure} failed, ${v.warning} warnings${v.why ? `, ${v.why}` : ''}`;
    console.log(`  ${v.passed ? 'PASS' : 'FAIL'} ${name} (${detail})`);
    for (const check of checks ?? []) {
      if (check.status === 'FAILURE' || (check.status === 'WARNING' && (mode === 'client' || process.env.CONFORMANCE_VERBOSE))) {
        console.log(`       ${check.status} ${check.id}: ${check.errorMessage ?? check.description ?? ''}`.slice(0, 400));
      }
    }
  }
  console.log(`  ${title}: ${expected.length - failed}/${expected.length} scenarios passed`);
  return failed;
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}
