/**
 * schema/manifest.validator.cjs: the manifest schema's ajv validator, compiled ahead of time.
 * Compiling the schema on every run cost more than the rest of a warm load of a large manifest;
 * the precompiled module loads at once and needs only two of ajv's small runtime helpers. `node scripts/manifest-validator.mjs` (after a build) rewrites it;
 * test/manifest/schema.test.ts fails when it no longer matches the schema.
 */
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';

import { MANIFEST_SCHEMA_URL } from './manifest-validator-paths.js';

const BANNER = '/* @generated from manifest.schema.json by ajv standalone. DO NOT EDIT. Regenerate with: npm run -s build && node scripts/manifest-validator.mjs */\n';

/** The module's text: every error, with its parent schema (the messages read `x-expect` and `x-hint` there). */
export function manifestValidatorSource(): string {
  const ajv = new Ajv2020.default({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true, code: { source: true } });
  ajv.addKeyword({ keyword: 'x-expect', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-hint', schemaType: 'string' });
  const validate = ajv.compile(JSON.parse(readFileSync(MANIFEST_SCHEMA_URL, 'utf8')) as object);
  return BANNER + standaloneCode.default(ajv, validate) + '\n';
}
