import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The slow tier: tests that install packages, start system programs, drive many compilers or
 * fuzz. `npm test` runs every other test file (the fast tier); `npm run test:all` runs both tiers
 * and the conformance suites. A pattern names a folder or a file name, never a whole path, so that
 * a test keeps its tier when it moves. docs/testing.md explains the rule.
 */
export const SLOW_TESTS = [
  'test/apps/**/*.test.ts', // the apps matrix: installs pinned bundlers and runtimes, builds one app per setup
  'test/platforms/**/*.test.ts', // the web handler on Bun, Deno, workerd, Hono and Next.js: installs the pinned runtimes, builds Next.js
  'test/matrix/**/*.test.ts', // the interop matrix: every client × server × transport × era, each a process
  'test/wild/**/*.test.ts', // the wild suite: installs pinned real clients and servers (test/wild/peers), each a process
  'test/**/user-tsconfig.test.ts', // installs TypeScript 5.0 and 7.0 and type-checks the output with each
  'test/**/init.test.ts', // `mcp-gen init` runs a real `npm install` from the registry
  'test/browser/**/*.test.ts', // a real Chromium (Debian package) opening a Vite-built client
  'test/**/browser.test.ts', // a real Chromium opening the docs page
  'test/**/*redis*.test.ts', // a real redis-server shared by several server processes
  'test/**/interop*.test.ts', // whole projects built with tsc, driven by the official SDK and server-everything
  'test/fuzz/generator.test.ts', // random manifests through the whole generator
  'test/**/fuzz.test.ts', // random inputs against the runtime and the mock
  'test/**/finished.test.ts', // over ten seconds: every command's exit codes, JSON and terminal output from the real binary
  'test/**/compile-workers.test.ts', // over ten seconds: validators compiled on worker threads over a 120-tool manifest
  'test/**/*.slow.test.ts', // waits out a real protocol timeout (named so wherever it lives)
];

/** Options of each tier's project (a project does not inherit the root's `test` options). */
const common = {
  // Interop tests spawn real servers and the official SDK; give them room on a 2-core machine.
  testTimeout: 60_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  // Root options that are not per project, such as globalSetup, run once for both tiers.
  test: {
    // One temporary root for the run, removed at its end; then the example and bench outputs
    // (git-ignored) are generated once before any tier runs.
    globalSetup: ['test/setup/temp-root.ts', 'test/setup/generate-outputs.ts'],
    // Most test time is spent waiting on child processes (tsc, servers, the SDK), so two files
    // run at once even on two cores (vitest's default would be cores - 1, which is one here).
    maxWorkers: 2,
    projects: [
      { test: { ...common, name: 'fast', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SLOW_TESTS] } },
      { test: { ...common, name: 'slow', include: SLOW_TESTS } },
    ],
  },
});
