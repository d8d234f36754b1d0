/**
 * The generator fuzz oracle (issue 6). Each manifest is either rejected with positioned diagnostics
 * and exit 2 (never an internal error), or generated into output that
 * - compiles under the strict settings (one tsc program for the whole batch; the runtime copy is
 *   shared through a symlink, so it is checked once),
 * - exports exactly the expected validators, and the expected types,
 * - runs nothing on import: every validators.js is imported in a child process whose globals are
 *   trapped (reads of process, require, fetch, eval, Function…, new globals, prototype changes),
 * - and whose types agree with its validators: sampled values the validator accepts type-check.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { VALIDATOR_TYPES } from '../../src/emit/validators/declarations.js';
import { main } from '../../src/cli/main.js';
import { toolTypeNames } from '../../src/emit/shared/naming.js';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { typeCheck } from '../server/support.js';

export interface CaseResult {
  index: number;
  outcome: 'generated' | 'rejected';
  problems: string[];
}

/** A diagnostic line the CLI prints for bad input: `error: file:line:col: message`. */
const POSITIONED = /^error: [^\n]+?:\d+:\d+: /;

/** Anything that makes the oracle fail, with the manifest that caused it. */
export class OracleFailure extends Error {}

/** Candidate values for a schema: built from its own keywords, plus a fixed pool of JSON values. */
export function samplesFor(schema: unknown): unknown[] {
  const pool: unknown[] = [null, 0, 1, -1.5, '', 'x', true, false, [], {}, { a: 1 }, [1, 'a'], { x: 'y', n: null }];
  const built: unknown[] = [];
  const build = (s: unknown, depth: number): unknown => {
    if (typeof s !== 'object' || s === null || depth > 4) return 'x';
    const node = s as Record<string, unknown>;
    if (Object.hasOwn(node, 'const')) return node['const'];
    if (Array.isArray(node['enum']) && node['enum'].length > 0) return node['enum'][0];
    const type = Array.isArray(node['type']) ? node['type'][0] : node['type'];
    const properties = node['properties'];
    if (type === 'object' || (type === undefined && typeof properties === 'object' && properties !== null)) {
      const out: Record<string, unknown> = {};
      if (typeof properties === 'object' && properties !== null) {
        for (const [k, v] of Object.entries(properties)) Object.defineProperty(out, k, { value: build(v, depth + 1), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    if (type === 'array') return [build(Array.isArray(node['prefixItems']) ? node['prefixItems'][0] : node['items'], depth + 1)];
    if (type === 'string') return 'x';
    if (type === 'integer' || type === 'number') return typeof node['minimum'] === 'number' ? node['minimum'] : 1;
    if (type === 'boolean') return true;
    if (type === 'null') return null;
    return 'x';
  };
  built.push(build(schema, 0));
  return [...built, ...pool];
}

/** True when a value holds a `__proto__` key: as an object literal TypeScript reads it as the prototype. */
function hasProtoKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Object.hasOwn(value, '__proto__')) return true;
  return Object.values(value).some(hasProtoKey);
}

interface Generated {
  index: number;
  out: string;
  /** wire tool name → [validator export, type expression, samples] per schema. */
  checks: Array<{ exportName: string; typeExpression: string; samples: unknown[] }>;
  expectedValidators: string[];
  expectedTypes: string[];
}

const CHILD = String.raw`
const jobs = JSON.parse((await import('node:fs')).readFileSync(process.argv.at(-1), 'utf8'));
const trapped = [];
const names = ['process', 'require', 'fetch', 'eval', 'Function', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'Buffer', 'WebAssembly', 'module', 'exports', 'global', 'globalThis_pwned'];
const write = process.stdout.write.bind(process.stdout);
for (const name of names) {
  const desc = Object.getOwnPropertyDescriptor(globalThis, name);
  Object.defineProperty(globalThis, name, { configurable: true, get() { trapped.push(name); return desc && (desc.get ? desc.get.call(globalThis) : desc.value); }, set() { trapped.push('set ' + name); } });
}
const globalsBefore = Reflect.ownKeys(globalThis).map(String).sort().join();
const protoBefore = Reflect.ownKeys(Object.prototype).map(String).sort().join();
const results = [];
for (const job of jobs) {
  const module = await import(job.url);
  const importTraps = trapped.splice(0);
  const verdicts = {};
  for (const [exportName, samples] of Object.entries(job.samples)) {
    const validate = module[exportName];
    verdicts[exportName] = typeof validate === 'function' ? JSON.parse(samples).map((s) => validate(s) === true) : null;
  }
  results.push({ exports: Object.keys(module).sort(), importTraps, verdicts });
}
const globalsAfter = Reflect.ownKeys(globalThis).map(String).sort().join();
const protoAfter = Reflect.ownKeys(Object.prototype).map(String).sort().join();
write(JSON.stringify({ results, globalsChanged: globalsBefore !== globalsAfter, protoChanged: protoBefore !== protoAfter, polluted: ({}).polluted !== undefined }));
`;

/**
 * Runs the oracle over `manifests` under `root`; returns what happened to each, and throws an
 * OracleFailure naming the case (by index) when any promise above does not hold.
 */
export async function checkBatch(root: string, manifests: readonly Record<string, unknown>[]): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  const generated: Generated[] = [];
  let sharedRuntime: string | undefined;
  for (const [index, manifest] of manifests.entries()) {
    const dir = join(root, `m${index}`);
    mkdirSync(dir, { recursive: true });
    const manifestPath = join(dir, 'manifest.json');
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const out = join(dir, 'out');
    const lines: string[] = [];
    let code: number;
    try {
      code = await main(['server', manifestPath, '-o', out, '--no-version-banner'], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
    } catch (error) {
      throw new OracleFailure(`case ${index}: main() threw ${String(error)}`);
    }
    const output = lines.join('\n');
    if (output.includes('internal error')) throw new OracleFailure(`case ${index}: internal error\n${output}`);
    if (code === 2) {
      const errors = lines.filter((l) => l.startsWith('error: '));
      const unplaced = errors.filter((l) => !POSITIONED.test(l));
      if (errors.length === 0 || unplaced.length > 0) throw new OracleFailure(`case ${index}: exit 2 without positioned diagnostics\n${output}`);
      results.push({ index, outcome: 'rejected', problems: errors });
      continue;
    }
    if (code !== 0) throw new OracleFailure(`case ${index}: exit ${code}\n${output}`);
    results.push({ index, outcome: 'generated', problems: [] });

    // Share one runtime copy: tsc then checks it once for the whole batch.
    const runtime = join(out, 'generated', 'runtime');
    if (sharedRuntime === undefined) {
      sharedRuntime = join(root, 'runtime');
      execFileSync('cp', ['-r', runtime, sharedRuntime]);
    }
    rmSync(runtime, { recursive: true });
    symlinkSync(sharedRuntime, runtime, 'dir');

    const { model } = await loadManifest(manifestPath);
    const names = toolTypeNames(model);
    const entry: Generated = { index, out, checks: [], expectedValidators: [], expectedTypes: ['Tools', 'ToolHandlers', 'Handlers'] };
    for (const tool of model.tools) {
      const n = names.get(tool.name)!;
      const key = JSON.stringify(tool.name);
      entry.expectedValidators.push(n.validateInput);
      entry.expectedTypes.push(n.input);
      entry.checks.push({ exportName: n.validateInput, typeExpression: `Tools[${key}]['input']`, samples: samplesFor(tool.inputSchema) });
      if (n.output && n.validateOutput && tool.outputSchema) {
        entry.expectedValidators.push(n.validateOutput);
        entry.expectedTypes.push(n.output);
        entry.checks.push({ exportName: n.validateOutput, typeExpression: `Tools[${key}]['output']`, samples: samplesFor(tool.outputSchema) });
      }
    }
    generated.push(entry);
  }
  if (generated.length === 0) return results;

  // Import every validators module in one trapped child process and judge the samples there. They
  // are TypeScript (types only added to ajv's code): types stripped into validators-js/ for Node 20.
  const jobs = generated.map((g) => ({
    url: `file://${join(stripValidatorTypes(g.out), 'validators.js')}`,
    samples: Object.fromEntries(g.checks.map((c) => [c.exportName, JSON.stringify(c.samples)])),
  }));
  const jobsFile = join(root, 'jobs.json');
  writeFileSync(jobsFile, JSON.stringify(jobs));
  const childText = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD, jobsFile], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const child = JSON.parse(childText) as {
    results: Array<{ exports: string[]; importTraps: string[]; verdicts: Record<string, boolean[] | null> }>;
    globalsChanged: boolean;
    protoChanged: boolean;
    polluted: boolean;
  };
  if (child.globalsChanged || child.protoChanged || child.polluted) throw new OracleFailure(`importing validators changed globals or Object.prototype: ${JSON.stringify(child)}`);

  const checkFiles: Record<string, string> = {};
  for (const [i, g] of generated.entries()) {
    const r = child.results[i]!;
    if (r.importTraps.length > 0) throw new OracleFailure(`case ${g.index}: importing validators.js touched ${r.importTraps.join(', ')}`);
    const expected = [...g.expectedValidators].sort();
    if (JSON.stringify(r.exports) !== JSON.stringify(expected)) throw new OracleFailure(`case ${g.index}: validators.js exports ${r.exports.join(', ')}, expected ${expected.join(', ')}`);
    const lines = [`import type { Tools } from './generated/types.js';`, 'export type AllTools = Tools;'];
    for (const name of g.expectedTypes) lines.push(`export type Expect_${name} = import('./generated/types.js').${name};`);
    let n = 0;
    for (const check of g.checks) {
      const verdicts = r.verdicts[check.exportName];
      if (!verdicts) throw new OracleFailure(`case ${g.index}: ${check.exportName} is not a function`);
      check.samples.forEach((sample, s) => {
        if (verdicts[s] && !hasProtoKey(sample)) lines.push(`export const sample${n++}: ${check.typeExpression} = ${JSON.stringify(sample)};`);
      });
    }
    checkFiles[join(g.out, 'fuzz-check.ts')] = `${lines.join('\n')}\n`;
  }
  // One program holds every case: TypeScript takes packages of the same name and version for one
  // package, and would resolve one case's `#generated/validators/*` in another's folder.
  for (const g of generated) {
    const path = join(g.out, 'package.json');
    if (existsSync(path)) writeFileSync(path, JSON.stringify({ ...(JSON.parse(readFileSync(path, 'utf8')) as object), name: `fuzz-case-${g.index}` }));
  }
  const diagnostics = typeCheck(
    generated.map((g) => g.out),
    checkFiles,
  );
  if (diagnostics.length > 0) throw new OracleFailure(`strict compile failed:\n${diagnostics.slice(0, 20).join('\n')}`);
  return results;
}

/**
 * The output's validator modules (`generated/validators.ts`, `validator-helpers.ts`,
 * `validators/*.ts`) as JavaScript, in `validators-js/`. Their TypeScript is only what the emitter
 * adds to ajv's code (type imports and exports, the two interfaces, each export's annotation), so
 * it is taken out by text: TypeScript's own emitter overflows the stack on the deepest fuzz schemas.
 */
function stripValidatorTypes(out: string): string {
  const from = join(out, 'generated');
  const to = join(out, 'validators-js');
  const names = ['validators.ts', 'validator-helpers.ts', 'validator-helpers.js', 'validator-defs.js', ...readdirSync(join(from, 'validators')).map((name) => `validators/${name}`)];
  for (const name of names.filter((n) => n.endsWith('.js') && existsSync(join(from, n)))) {
    // Written as JavaScript already (module-layout.ts): taken as it is.
    mkdirSync(dirname(join(to, name)), { recursive: true });
    copyFileSync(join(from, name), join(to, name));
  }
  for (const name of names.filter((n) => n.endsWith('.ts') && !n.endsWith('.d.ts') && existsSync(join(from, n)))) {
    const js = readFileSync(join(from, name), 'utf8')
      // The index names JavaScript modules through the project's package.json `imports`: here, beside it.
      .replaceAll('"#generated/validators/', '"./validators/')
      .replace(VALIDATOR_TYPES, '')
      .replace(/^(?:import|export) type .*\n/gm, '')
      .replace(/^(export const \[[^\]\n]*\]): \[.*\] = /gm, '$1 = ');
    mkdirSync(dirname(join(to, name)), { recursive: true });
    writeFileSync(join(to, name.replace(/\.ts$/, '.js')), js);
  }
  return to;
}
