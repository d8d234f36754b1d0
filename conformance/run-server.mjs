#!/usr/bin/env node
/**
 * `npm run conformance:server`: builds and starts the conformance example server on a free loopback
 * port, runs the official suite against it, prints a verdict per scenario and the counts, and exits 1
 * when any scenario fails.
 *
 * Runs: 0.1.16 active + the pending json-schema-2020-12; 0.2.0-alpha.12 `--suite all` (pending
 * included, extensions excluded) at 2025-11-25 and at 2026-07-28; the tasks extension scenarios
 * (`tasks-*`, one `--scenario` run each) at 2026-07-28.
 * Options: `--run <id>` (repeatable; ids below) and `--scenario <name>` to narrow a run;
 * `--platform <bun|deno|workerd|hono>` serves the example's web handler (`--target web`) on that
 * platform instead of `main.js --http` under Node (`npm run conformance:platforms`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { serveOnPlatform } from './platform-server.mjs';
import { ROOT, ensureInstalled, freePort, listScenarios, readChecks, removeDir, report, runSuite, tempDir } from './harness.mjs';

const RUNS = [
  {
    id: '0.1',
    title: 'conformance 0.1.16, active + json-schema-2020-12',
    suite: '0.1',
    invocations: [[], ['--scenario', 'json-schema-2020-12']],
    // 0.1.16 lists the two pending scenarios with the active ones; server-sse-polling is not in scope.
    expected: async () => (await listScenarios('0.1', 'server')).map((s) => s.name).filter((n) => n !== 'server-sse-polling'),
  },
  ...['2025-11-25', '2026-07-28'].map((version) => ({
    id: `0.2-${version}`,
    title: `conformance 0.2.0-alpha.12, --suite all, --spec-version ${version}, extensions excluded`,
    suite: '0.2',
    invocations: [['--suite', 'all', '--spec-version', version]],
    expected: async () =>
      (await listScenarios('0.2', 'server', version)).filter((s) => !s.tags.includes('extension')).map((s) => s.name),
  })),
  {
    // Extension scenarios are not part of any revision's suite: each runs on its own with --scenario.
    id: '0.2-2026-07-28-tasks',
    title: 'conformance 0.2.0-alpha.12, tasks extension (tasks-*), at 2026-07-28',
    suite: '0.2',
    // Without --spec-version an extension scenario runs at 2026-07-28 (a named revision filters it out).
    perScenario: [],
    expected: async () =>
      (await listScenarios('0.2', 'server'))
        .filter((s) => s.tags.includes('extension') && s.name.startsWith('tasks-'))
        .map((s) => s.name),
    // The suite itself only records SKIPPED here (its listen-stream harness is pending upstream):
    // the verdict rule counts that as no result, so it is listed apart rather than as a pass.
    noChecks: ['tasks-status-notifications'],
  },
];

const { values } = parseArgs({
  options: { run: { type: 'string', multiple: true }, scenario: { type: 'string' }, platform: { type: 'string' } },
});
const runs = values.run ? RUNS.filter((r) => values.run.includes(r.id)) : RUNS;
if (runs.length === 0) {
  console.error(`--run must be one of ${RUNS.map((r) => r.id).join(', ')}`);
  process.exit(2);
}

ensureInstalled();
const server = values.platform === undefined ? await serveOnNode() : await serveOnPlatform(values.platform);
const url = server.url;
console.log(`conformance server at ${url}${values.platform === undefined ? '' : ` (the web handler on ${values.platform})`}`);

let failedScenarios = 0;
const totals = [];
try {
  for (const run of runs) {
    const dir = tempDir('mcp-gen-conformance-');
    let expected = await run.expected();
    let invocations = run.invocations ?? expected.map((name) => [...run.perScenario, '--scenario', name]);
    if (values.scenario !== undefined) {
      expected = expected.filter((n) => n === values.scenario);
      const base = run.invocations?.[0] ?? run.perScenario;
      invocations = [[...base.filter((a, i, all) => a !== '--suite' && all[i - 1] !== '--suite'), '--scenario', values.scenario]];
      if (expected.length === 0) continue;
    }
    for (const args of invocations) {
      const { output } = await runSuite(run.suite, ['server', '--url', url, '-o', dir, ...args]);
      if (process.env.CONFORMANCE_VERBOSE) console.log(output);
    }
    const skippedUpstream = expected.filter((name) => run.noChecks?.includes(name));
    const judged = expected.filter((name) => !skippedUpstream.includes(name));
    const failed = report(run.title, judged, readChecks(dir), 'server');
    for (const name of skippedUpstream) console.log(`  -- ${name}: the suite records only SKIPPED (not counted)`);
    totals.push(`${run.title}: ${judged.length - failed}/${judged.length}${skippedUpstream.length > 0 ? ` (+${skippedUpstream.length} the suite skips itself)` : ''}`);
    failedScenarios += failed;
    if (process.env.CONFORMANCE_KEEP) console.log(`  results kept in ${dir}`);
    else removeDir(dir);
  }
} finally {
  await server.stop();
}
console.log('\n== Summary');
for (const line of totals) console.log(`  ${line}`);
if (/Error|threw/.test(server.log()) && process.env.CONFORMANCE_VERBOSE) console.log(`\nserver log:\n${server.log()}`);
process.exit(failedScenarios === 0 ? 0 : 1);

/** The conformance example built with tsc and served by `main.js --http` under this Node. */
async function serveOnNode() {
  // The server's generated code is git-ignored: generate it (as `npm run gen:examples` does), then build.
  const generate = spawnSync(process.execPath, ['bin/mcp-gen.js', 'regenerate-self', '--examples', '--quiet'], { cwd: ROOT, stdio: 'inherit' });
  if (generate.status !== 0) process.exit(1);
  const build = spawnSync('npx', ['tsc', '-b', 'examples/conformance/server'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
  const port = await freePort();
  const child = spawn(process.execPath, ['examples/conformance/server/build/main.js', '--http', '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let serverLog = '';
  await new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      serverLog += chunk;
      if (serverLog.includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the example server exited (${code}):\n${serverLog}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, log: () => serverLog, stop: async () => child.kill() };
}
