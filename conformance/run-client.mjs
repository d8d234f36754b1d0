#!/usr/bin/env node
/**
 * `npm run conformance:client`: the official suite's client scenarios (everything outside auth/ and
 * the extensions) against the client command built on a generated client,
 * `npm run -s example:conformance-client -- <url>` (examples/conformance-client). Three runs:
 * 0.1.16 (its four client scenarios), and 0.2.0-alpha.12 at 2025-11-25 and at 2026-07-28.
 * Uses the shared harness (harness.mjs, from the issue-7 branch) for installing the suites and
 * Node 22, running them, and the verdicts (any WARNING fails a client scenario; no checks fails).
 * Exits 1 when any scenario fails.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureInstalled, listScenarios, readChecks, removeDir, report, ROOT, runSuite, tempDir } from './harness.mjs';

/** The command the suite runs (it appends the URL); npm runs the script in the repository root. */
const COMMAND = `npm --prefix ${ROOT} run -s example:conformance-client --`;
const OLD_SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];

ensureInstalled();
// Built once here, so the scenarios (run one after another) never race to build it.
const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const build = spawnSync(process.execPath, [tsc, '-b', join(ROOT, 'examples', 'conformance-client')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(1);

const runs = [
  { suite: '0.1', title: 'conformance 0.1.16, client', specVersion: undefined, scenarios: OLD_SCENARIOS },
  { suite: '0.2', title: 'conformance 0.2.0-alpha.12, client, 2025-11-25', specVersion: '2025-11-25' },
  { suite: '0.2', title: 'conformance 0.2.0-alpha.12, client, 2026-07-28', specVersion: '2026-07-28' },
];

let failed = 0;
for (const run of runs) {
  const scenarios =
    run.scenarios ??
    (await listScenarios(run.suite, 'client', run.specVersion))
      .filter((s) => !s.name.startsWith('auth/') && !s.tags.includes('extension'))
      .map((s) => s.name);
  const dir = tempDir('mcp-gen-conformance-client-');
  try {
    for (const scenario of scenarios) {
      const args = ['client', '--command', COMMAND, '--scenario', scenario, '-o', dir];
      if (run.specVersion !== undefined) args.push('--spec-version', run.specVersion);
      await runSuite(run.suite, args, { timeoutMs: 120_000 });
    }
    failed += report(run.title, scenarios, readChecks(dir), 'client');
  } finally {
    removeDir(dir);
  }
}
process.exit(failed > 0 ? 1 : 0);
