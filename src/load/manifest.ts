/**
 * Reads a server manifest (YAML or JSON), validates it against schema/manifest.schema.json and the
 * protocol's rules, and bundles every tool schema. It returns the validated document; building the
 * model from it is the pipeline's step (src/pipeline/manifest.ts), so load never reaches into model.
 * All problems are collected and thrown together as one InputError; warnings come back beside the document.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { InputError, inputProblem } from './diagnostics.js';
import type { Diagnostic } from './diagnostics.js';
import { authWarnings, checkAuthRules } from './manifest-auth.js';
import { checkHttpRules } from './manifest-http.js';
import { checkManifestRules, checkToolSchema, toolNameWarnings, type SchemaCheck } from './manifest-checks.js';
import { checkViews, withViewPages } from './manifest-views.js';
import type { CompileResult } from './schema-compiler.js';
import { precheck } from './schema-precheck.js';
import { SchemaBundler } from './manifest-refs.js';
import type { SchemaFile } from './manifest-refs.js';
import { validateAgainstManifestSchema } from './manifest-schema.js';
import { STATELESS_REVISION } from './spec.js';
import { isSchemaObject as isObject, type SchemaObject } from '../schema/keywords.js';
import { parseInput } from './json-source.js';
import { BundledToolsMemo, type Recall } from './bundled-tools-memo.js';
import { diagnosticAt, formatOf, joinPointer } from './yaml-positions.js';

export interface LoadManifestOptions {
  /** Let `$ref` reach files outside the manifest's folder (`--allow-outside-refs`). */
  allowOutside?: boolean;
  /** How messages name the manifest; defaults to `manifestPath` as given. */
  displayPath?: string;
  /**
   * Filled with the absolute path of every file loading read or tried to read: the manifest and each
   * `$ref`ed file, missing ones included, also when loading fails (what `--watch` watches).
   */
  inputFiles?: Set<string>;
  /** Reuses what an earlier run computed from the same input (the output folder's unit cache). */
  memo?: (kind: string, input: string, compute: () => string) => string;
  /** The same cache, for what the loader stores only once it knows it is worth keeping (bundled-tools-memo.ts). */
  recall?: Recall;
}

export interface ReadManifest {
  /** The validated manifest with every tool schema bundled (self-contained): the model builder's input. */
  document: SchemaObject;
  /** How messages name the manifest. */
  display: string;
  /** A problem at `pointer` in the manifest, with its line and column. */
  placeAt: (pointer: string, message: string, hint?: string) => Diagnostic;
  /** Things worth telling the user that do not stop generation (risky patterns, odd names). */
  warnings: Diagnostic[];
  /** Absolute paths of the schema files reached through `$ref` (the manifest itself not included). */
  schemaFiles: string[];
}

/** A manifest larger than this is not a manifest. */
export const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;

export async function readManifest(manifestPath: string, options: LoadManifestOptions = {}): Promise<ReadManifest> {
  const display = options.displayPath ?? manifestPath;
  options.inputFiles?.add(path.resolve(manifestPath));
  let text: string;
  try {
    if ((await stat(manifestPath)).size > MAX_MANIFEST_BYTES) throw inputProblem(display, `manifest is larger than ${MAX_MANIFEST_BYTES} bytes`);
    text = await readFile(manifestPath, 'utf8');
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw inputProblem(display, code === 'ENOENT' ? 'manifest not found' : `cannot read manifest: ${(error as Error).message}`);
  }

  const parsed = parseInput(text, display, formatOf(manifestPath), options.recall);
  const warnings = [...parsed.warnings];
  if (!parsed.document) throw new InputError(parsed.problems);
  const doc = parsed.document;
  const problems: Diagnostic[] = [...parsed.problems];
  if (!isObject(doc.value)) {
    throw new InputError([diagnosticAt(doc, '', 'a manifest is a mapping with at least a `server` entry', 'start with `server: { name: my-server, version: 1.0.0 }`')]);
  }
  const raw = doc.value;

  const tools = Array.isArray(raw.tools) ? raw.tools : [];
  // 2026-07-28 (served unless protocol.versions leaves it out) allows any JSON Schema as outputSchema.
  const versions = isObject(raw.protocol) ? raw.protocol['versions'] : undefined;
  const servesStateless = !Array.isArray(versions) || versions.includes(STATELESS_REVISION);
  // Of either format: the memo keys only values that JSON text gives back exactly (json-exact.ts).
  const kept = options.recall ? new BundledToolsMemo(options.recall, raw, { allowOutside: options.allowOutside ?? false, servesStateless }) : undefined;
  // The tools kept from the last run, found first: the manifest schema need not look at them again.
  const keptTools = tools.map((tool) => {
    const key = kept !== undefined && isObject(tool) ? kept.keyOf(tool) : undefined;
    return key === undefined ? undefined : { key, schemas: kept?.reuse(key, tool) };
  });
  const unchanged = new Set(keptTools.flatMap((entry, index) => (entry?.schemas !== undefined ? [index] : [])));

  const schemaProblems = validateAgainstManifestSchema(doc, unchanged);
  problems.push(...schemaProblems);
  // A tool schema's keyword of the wrong type is one mistake: the manifest schema's message says it
  // plainly, so the meta-schema's account of the same place is left out.
  const reported = new Set(schemaProblems.map((d) => d.pointer));
  const notYetReported = (d: Diagnostic): boolean => d.file !== display || !reported.has(d.pointer);
  problems.push(...checkManifestRules(doc));
  problems.push(...checkAuthRules(doc));
  problems.push(...checkHttpRules(doc));
  const views = await checkViews(doc, manifestPath, { allowOutside: options.allowOutside ?? false, ...(options.inputFiles ? { inputFiles: options.inputFiles } : {}) });
  problems.push(...views.problems);
  warnings.push(...toolNameWarnings(doc));
  warnings.push(...authWarnings(doc));

  const manifestFile: SchemaFile = { path: path.resolve(manifestPath), doc };
  const bundler = new SchemaBundler(manifestFile, {
    allowOutside: options.allowOutside ?? false,
    displayDir: path.dirname(display),
    ...(options.inputFiles ? { inputFiles: options.inputFiles } : {}),
  });

  // Shared definitions are checked even when no tool uses them, so a broken one never hides.
  if (isObject(raw.$defs)) {
    for (const name of Object.keys(raw.$defs)) bundler.bundle(joinPointer('/$defs', name));
  }
  const bundledTools: unknown[] = [];
  for (const [index, tool] of tools.entries()) {
    if (!isObject(tool)) {
      bundledTools.push(tool);
      continue;
    }
    const bundledTool: SchemaObject = { ...tool };
    const keptKey = keptTools[index]?.key;
    const reused = keptTools[index]?.schemas;
    if (reused !== undefined) {
      bundledTools.push({ ...bundledTool, ...reused });
      continue;
    }
    const before = { problems: problems.length, warnings: warnings.length, bundlerProblems: bundler.problems.length, bundlerWarnings: bundler.warnings.length, files: bundler.filesRead.length };
    let complete = true;
    for (const key of ['inputSchema', 'outputSchema'] as const) {
      if (!isObject(tool[key])) continue;
      const pointer = joinPointer('/tools', index, key);
      const bundled = bundler.bundle(pointer);
      const run = (compileCheck: (schema: SchemaObject) => CompileResult): SchemaCheck =>
        checkToolSchema(bundled, tool[key] as SchemaObject, key, { anyOutput: servesStateless, compileCheck, ...(options.memo ? { memo: options.memo } : {}) });
      // Awaited only when the check needs the compiler loaded: 1,000 tools are 1,600 checks.
      const check = checkWithLoadedCompiler(run) ?? (await checkAfterLoadingCompiler(run));
      problems.push(...check.problems.filter(notYetReported));
      complete &&= check.problems.length === 0;
      warnings.push(...check.warnings);
      bundledTool[key] = bundled.schema;
      complete &&= bundled.complete;
    }
    const clean =
      complete &&
      problems.length === before.problems &&
      warnings.length === before.warnings &&
      bundler.problems.length === before.bundlerProblems &&
      bundler.warnings.length === before.bundlerWarnings &&
      bundler.filesRead.length === before.files;
    if (kept !== undefined && keptKey !== undefined && clean) {
      const schemas: { inputSchema?: SchemaObject; outputSchema?: SchemaObject } = {};
      for (const key of ['inputSchema', 'outputSchema'] as const) if (isObject(bundledTool[key])) schemas[key] = bundledTool[key] as SchemaObject;
      kept.keep(keptKey, tool, schemas);
    }
    bundledTools.push(bundledTool);
  }
  problems.push(...bundler.problems);
  warnings.push(...bundler.warnings);

  if (problems.length > 0) throw new InputError(sortDiagnostics(dedupe(problems), display));

  return {
    document: withViewPages(Array.isArray(raw.tools) ? { ...raw, tools: bundledTools } : raw, views.pages),
    display,
    placeAt: (pointer, message, hint) => diagnosticAt(doc, pointer, message, hint),
    warnings: orderDiagnostics(warnings, display),
    schemaFiles: [...bundler.filesRead].sort(),
  };
}

/** Thrown (and caught below) when a check needs the compiler before it is loaded. */
const COMPILER_NOT_LOADED = Symbol('compiler not loaded');
let compiler: typeof import('./schema-compiler.js') | undefined;

type SchemaCheckRun = (compileCheck: (schema: SchemaObject) => CompileResult) => SchemaCheck;

function compileCheck(schema: SchemaObject): CompileResult {
  const settled = precheck(schema);
  if (settled) return settled;
  if (!compiler) throw COMPILER_NOT_LOADED;
  return compiler.compileCheck(schema);
}

/**
 * Runs a tool-schema check; undefined when it needs ajv (schema-compiler.ts) and that is not
 * loaded yet. A warm run whose checks all come from the unit cache never loads it, nor does a
 * check that the precompiled meta-schema validators and the compile-free walk settle
 * (schema-precheck.ts).
 */
function checkWithLoadedCompiler(check: SchemaCheckRun): SchemaCheck | undefined {
  try {
    return check(compileCheck);
  } catch (error) {
    if (error !== COMPILER_NOT_LOADED) throw error;
    return undefined;
  }
}

/** Loads the compiler and runs the check again: it is pure (the unit cache counts one extra miss). */
async function checkAfterLoadingCompiler(check: SchemaCheckRun): Promise<SchemaCheck> {
  compiler ??= await import('./schema-compiler.js');
  return check(compileCheck);
}

/** Without repeats; the manifest first, then other files by name; within a file, by position. */
export function orderDiagnostics(diagnostics: Diagnostic[], manifest: string): Diagnostic[] {
  return sortDiagnostics(dedupe(diagnostics), manifest);
}

function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.file}\0${d.line}\0${d.column}\0${d.pointer}\0${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The manifest first, then other files by name; within a file, by position. */
function sortDiagnostics(diagnostics: Diagnostic[], manifest: string): Diagnostic[] {
  const byFile = (a: string, b: string): number =>
    a === b ? 0 : a === manifest ? -1 : b === manifest ? 1 : a < b ? -1 : 1;
  return [...diagnostics].sort((a, b) => byFile(a.file, b.file) || a.line - b.line || a.column - b.column);
}
