/**
 * The part of the tool-schema compile check that needs no ajv: the schema against its dialect's
 * meta-schema, by validators precompiled at build time, then the compile-free walk
 * (compile-free.ts) with what the compiling ajv knows, recorded at the same time (both made by
 * meta-validators-source.ts). Only a schema this cannot vouch for is compiled (schema-compiler.ts,
 * which loads ajv): building ajv's meta-schema validator and loading ajv cost more than checking
 * the one changed tool of a warm run.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import type { SchemaObject } from '../schema/keywords.js';
import { compilesCleanly, type CompilerKnowledge } from './compile-free.js';
import { isDraft07 } from './manifest-refs.js';
import { COMPILER_KNOWLEDGE_URL, META_VALIDATOR_URLS } from './meta-validator-paths.js';
import type { CompileResult, Dialect } from './schema-compiler.js';

interface Precompiled {
  validate: ValidateFunction;
  knows: CompilerKnowledge;
}

const loaded = new Map<Dialect, Precompiled>();
let knowledge: Record<Dialect, { keywords: string[]; formats: string[] }> | undefined;

/** Loaded on first use: a warm run whose checks all come from the unit cache needs neither. */
function precompiledFor(dialect: Dialect): Precompiled {
  let found = loaded.get(dialect);
  if (!found) {
    knowledge ??= JSON.parse(readFileSync(COMPILER_KNOWLEDGE_URL, 'utf8')) as Record<Dialect, { keywords: string[]; formats: string[] }>;
    const keywords = new Set(knowledge[dialect].keywords);
    const formats = new Set(knowledge[dialect].formats);
    found = {
      validate: createRequire(import.meta.url)(fileURLToPath(META_VALIDATOR_URLS[dialect])) as ValidateFunction,
      knows: { keyword: (name) => keywords.has(name), format: (name) => formats.has(name) },
    };
    loaded.set(dialect, found);
  }
  return found;
}

/**
 * The check's result when no compiling is needed: the meta-schema's complaints, or nothing to
 * report because compiling would find nothing. Undefined when only compiling can tell.
 */
export function precheck(schema: SchemaObject): CompileResult | undefined {
  const { validate, knows } = precompiledFor(isDraft07(schema) ? 'draft-07' : '2020-12');
  if (!validate(schema)) return { schemaErrors: validate.errors ?? [], warnings: [] };
  if (compilesCleanly(schema, knows)) return { schemaErrors: [], warnings: [] };
  return undefined;
}
