import type { SchemaObject } from './keywords.js';
import { sha256Hex } from './sha256.js';

/**
 * A tool schema's JSON text and its SHA-256, each made once per schema per run. Several unit-cache
 * keys hold the same schemas (a tool's types, its validators, its `server.ts` statement, the
 * client's output check): keyed by the digest, a key is short, and at 1,000 tools neither writing
 * the schemas out again nor hashing them again for each key shows in a warm run. Schemas are
 * never changed once the model is built, so both stay true.
 *
 * The manifest loader records the digest of a tool schema it rebuilt from the unit cache
 * (bundled-tools-memo.ts), taken when the schema was kept: that schema is never written out here.
 */
const texts = new WeakMap<SchemaObject, string>();
const digests = new WeakMap<SchemaObject, string>();

function schemaText(schema: SchemaObject): string {
  let text = texts.get(schema);
  if (text === undefined) {
    text = JSON.stringify(schema);
    texts.set(schema, text);
  }
  return text;
}

/** The SHA-256 of the schema's JSON text, as it stands for the schema in a cache key. */
export function schemaDigest(schema: SchemaObject): string {
  let digest = digests.get(schema);
  if (digest === undefined) {
    digest = sha256Hex(schemaText(schema));
    digests.set(schema, digest);
  }
  return digest;
}

/** Records the digest of a schema made from a kept copy: `sha256Hex` of that copy's JSON text, taken when it was kept. */
export function recordSchemaDigest(schema: SchemaObject, digest: string): void {
  digests.set(schema, digest);
}
