import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { checkOutput, type OutputResult } from '../check/check-output.js';
import { CONFIG_FILES, readConfig } from '../check/config.js';
import { findLedgerFolders, isDirectory } from '../check/find-outputs.js';
import { inputProblem } from '../load/diagnostics.js';
import { LEDGER_FILE } from '../write/ledger.js';
import { EXIT_DRIFT, EXIT_INPUT, EXIT_OK, type Console } from './output.js';
import type { Target } from '../check/target.js';

export interface CheckOptions {
  json?: boolean;
  live?: boolean;
}

/** A folder to check, and the target a config gives for it (else its ledger's). */
type Job = { out: string; target?: Target; configDir?: string };

async function fromConfig(file: string): Promise<Job[]> {
  return (await readConfig(file)).map((target) => ({ out: target.job.out, target, configDir: dirname(resolve(file)) }));
}

async function jobsFor(paths: readonly string[]): Promise<Job[]> {
  if (paths.length === 0) {
    const config = CONFIG_FILES.map((name) => resolve(name)).find((file) => existsSync(file));
    if (config) return fromConfig(config);
    const folders = await findLedgerFolders(process.cwd());
    if (folders.length === 0) throw inputProblem('.', `no ${CONFIG_FILES[0]} here and no ${LEDGER_FILE} below`, 'give an output folder or a config file');
    return folders.map((out) => ({ out }));
  }
  const jobs: Job[] = [];
  for (const path of paths) {
    if (!existsSync(path)) throw inputProblem(path, 'no such file or folder');
    if (!isDirectory(path)) jobs.push(...(await fromConfig(path)));
    else if (existsSync(join(path, LEDGER_FILE))) jobs.push({ out: resolve(path) });
    else {
      const config = CONFIG_FILES.map((name) => join(path, name)).find((file) => existsSync(file));
      if (!config) throw inputProblem(path, `no ${LEDGER_FILE} in this folder`, 'give an output folder of mcp-gen, or a config file');
      jobs.push(...(await fromConfig(config)));
    }
  }
  return jobs;
}

function printHuman(io: Console, results: readonly OutputResult[]): void {
  for (const r of results) {
    // tsc's output beside the generated .ts files (no outDir): told apart, not drift (compiled-output.ts).
    if (r.compiled.length > 0) {
      const more = r.compiled.length > 1 ? ` and ${r.compiled.length - 1} more` : '';
      io.err(`compiled output: ${r.out}/${r.compiled[0]}${more}, tsc's from the generated .ts files (not checked; an "outDir" in tsconfig.json builds elsewhere)`);
    }
    if (r.status === 'current') {
      io.out(`${r.out}: up to date.`);
      continue;
    }
    if (r.status === 'error') {
      io.err(`error: ${r.out}: ${r.error}`);
      continue;
    }
    for (const p of r.changedInputs) io.err(`input changed: ${p}`);
    for (const p of r.stale) io.err(`stale: ${r.out}/${p}`);
    for (const p of r.missing) io.err(`missing: ${r.out}/${p}`);
    for (const p of r.extra) io.err(`extra: ${r.out}/${p}`);
    // Regenerating deletes only what an earlier run generated; a file someone put there stays.
    if (r.extra.length > 0) io.err(`note: regenerating removes only files an earlier run generated; delete the extra files it leaves`);
    io.err(`${r.out}: out of date; fix with: ${r.fix}`);
  }
}

/** `mcp-gen check [path…]`: 0 all current, 1 something out of date, 2 something cannot be checked. */
export async function runCheck(paths: readonly string[], options: CheckOptions, io: Console): Promise<number> {
  const results: OutputResult[] = [];
  for (const job of await jobsFor(paths)) {
    const { out, ...rest } = job;
    results.push(await checkOutput(out, { live: options.live === true, ...rest }));
  }
  const code = results.some((r) => r.status === 'error') ? EXIT_INPUT : results.some((r) => r.status === 'stale') ? EXIT_DRIFT : EXIT_OK;
  if (options.json) io.out(JSON.stringify({ exitCode: code, outputs: results }, null, 2));
  else printHuman(io, results);
  return code;
}
