#!/usr/bin/env node
/**
 * `npm run conformance:client`: the official suite's client scenarios against the client command
 * built on a generated client, `npm run -s example:conformance-client -- <url>` (built once, then
 * its `node …/build/main.js` run directly; two scenarios at a time, `CONFORMANCE_PARALLEL`)
 * (examples/conformance-client, generated with `--auth`). Three runs, auth/ scenarios included:
 * 0.1.16 (its four core scenarios and all its auth/ ones), and 0.2.0-alpha.12 at 2025-11-25 and at
 * 2026-07-28 (every scenario of that revision). Then the extension auth scenarios of both suites
 * (client credentials, DPoP, enterprise/cross-app, workload identity) in their own section: the
 * client-credentials and DPoP ones must pass, the others are reported.
 * Uses the shared harness (harness.mjs, from the issue-7 branch) for installing the suites and
 * Node 22, running them, and the verdicts (any WARNING fails a client scenario; no checks fails).
 * Exits 1 when any required scenario fails.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureInstalled, listScenarios, readChecks, removeDir, report, ROOT, runSuite, tempDir, verdict } from './harness.mjs';

/**
 * The command the suite runs (it appends the URL): what `npm run -s example:conformance-client --`
 * runs once its build is done. The build happens once below, so each of the ~80 scenarios does not
 * pay npm's start-up and an incremental tsc (about 2 s of CPU each).
 */
const COMMAND = `${process.execPath} ${join(ROOT, "examples", "conformance-client", "build", "main.js")}`;
/** Scenarios run at once: each is a suite process and a client process, mostly waiting on each other. */
const PARALLEL = Number(process.env.CONFORMANCE_PARALLEL ?? 2);
const OLD_SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];

ensureInstalled();
// The client is git-ignored: generate it (as `npm run gen:examples` does), then build it once here,
// so the scenarios (run one after another) never race to build it.
const generate = spawnSync(process.execPath, [join(ROOT, 'bin', 'mcp-gen.js'), 'regenerate-self', '--examples', '--quiet'], { stdio: 'inherit' });
if (generate.status !== 0) process.exit(1);
const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const build = spawnSync(process.execPath, [tsc, '-b', join(ROOT, 'examples', 'conformance-client')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(1);

/** `--run <name>` runs one of the runs below; `--scenario <name>` one scenario of it. */
const only = argument('--run');
const onlyScenario = argument('--scenario');

const isExtension = (s) => s.tags.includes('extension');
const isAuth = (s) => s.name.startsWith('auth/');
/** Extension auth scenarios that must pass; the others in that section are reported only. */
const REQUIRED_EXTENSIONS = /^auth\/(client-credentials|dpop)/;

const runs = [
  {
    name: '0.1',
    suite: '0.1',
    title: 'conformance 0.1.16, client',
    specVersion: undefined,
    pick: (all) => [...OLD_SCENARIOS, ...all.filter((s) => isAuth(s) && !isExtension(s)).map((s) => s.name)],
  },
  { name: '0.2-2025-11-25', suite: '0.2', title: 'conformance 0.2.0-alpha.12, client, 2025-11-25', specVersion: '2025-11-25' },
  { name: '0.2-2026-07-28', suite: '0.2', title: 'conformance 0.2.0-alpha.12, client, 2026-07-28', specVersion: '2026-07-28' },
  {
    name: '0.1-extensions',
    suite: '0.1',
    title: 'conformance 0.1.16, client, extension auth scenarios',
    specVersion: undefined,
    pick: (all) => all.filter((s) => isAuth(s) && isExtension(s)).map((s) => s.name),
    required: (name) => REQUIRED_EXTENSIONS.test(name),
  },
  {
    name: '0.2-extensions',
    suite: '0.2',
    title: 'conformance 0.2.0-alpha.12, client, extension auth scenarios',
    specVersion: undefined,
    pick: (all) => all.filter((s) => isAuth(s) && isExtension(s)).map((s) => s.name),
    required: (name) => REQUIRED_EXTENSIONS.test(name),
  },
];

let failed = 0;
for (const run of runs) {
  if (only !== undefined && run.name !== only) continue;
  const listed = await listScenarios(run.suite, 'client', run.specVersion);
  let scenarios = run.pick ? run.pick(listed) : listed.filter((s) => !isExtension(s)).map((s) => s.name);
  if (onlyScenario !== undefined) scenarios = scenarios.filter((s) => s === onlyScenario);
  const dir = tempDir('mcp-gen-conformance-client-');
  try {
    const queue = [...scenarios];
    const worker = async () => {
      for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
        const args = ['client', '--command', COMMAND, '--scenario', scenario, '-o', dir];
        if (run.specVersion !== undefined) args.push('--spec-version', run.specVersion);
        await runSuite(run.suite, args, { timeoutMs: 120_000 });
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, PARALLEL) }, worker));
    const checks = readChecks(dir);
    if (run.required === undefined) {
      failed += report(run.title, scenarios, checks, 'client');
    } else {
      // Reported in full; only the required ones count toward the exit code.
      report(run.title, scenarios, checks, 'client');
      const required = scenarios.filter(run.required);
      failed += required.filter((name) => !verdict(checks.get(name), 'client').passed).length;
      console.log(`  required (${required.join(', ')}): ${required.filter((name) => verdict(checks.get(name), 'client').passed).length}/${required.length} passed`);
    }
  } finally {
    if (process.env.CONFORMANCE_KEEP) console.log(`  results kept in ${dir}`);
    else removeDir(dir);
  }
}
process.exit(failed > 0 ? 1 : 0);

function argument(flag) {
  const index = process.argv.indexOf(flag);
  return index === -1 ? undefined : process.argv[index + 1];
}
