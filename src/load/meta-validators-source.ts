/**
 * schema/meta-2020-12.validator.cjs, schema/meta-draft-07.validator.cjs and
 * schema/compiler-knowledge.json: what the tool-schema check needs from ajv, made ahead of time.
 * Building ajv's validator for the 2020-12 meta-schema, and loading ajv itself, cost more than the
 * rest of a run that checks one schema (a warm run after one tool changed, say). The
 * precompiled validators need one small ajv runtime helper; the knowledge file lists the keywords
 * and formats the compiling ajv knows, for the compile-free walk (compile-free.ts).
 * `node scripts/meta-validators.mjs` (after a build) rewrites them; test/manifest/meta-validators.test.ts
 * fails when they no longer match what ajv gives.
 */
import standaloneCode from 'ajv/dist/standalone/index.js';
import { compilerKnowledge, makeAjv, META_OPTIONS, type Dialect } from './schema-compiler.js';

const BANNER = '/* @generated from ajv\'s meta-schema by ajv standalone. DO NOT EDIT. Regenerate with: npm run -s build && node scripts/meta-validators.mjs */\n';

/** The meta-schema each dialect's ajv judges a schema against (its `$schema` when it has none). */
const META_SCHEMA_IDS: Record<Dialect, string> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema',
};

/** The module's text: the validator ajv's validateSchema uses for `dialect`, with the same options. */
export function metaValidatorSource(dialect: Dialect): string {
  const ajv = makeAjv(dialect, { ...META_OPTIONS, code: { source: true } });
  const validate = ajv.getSchema(META_SCHEMA_IDS[dialect]);
  if (!validate) throw new Error(`ajv has no meta-schema ${META_SCHEMA_IDS[dialect]}`);
  return BANNER + standaloneCode.default(ajv, validate) + '\n';
}

/** The knowledge file's text. */
export function compilerKnowledgeSource(): string {
  return `${JSON.stringify({ '2020-12': compilerKnowledge('2020-12'), 'draft-07': compilerKnowledge('draft-07') }, null, 2)}\n`;
}
