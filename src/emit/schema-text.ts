import type { SchemaObject } from '../schema/keywords.js';

/**
 * A tool schema's JSON text, made once per schema per run. Several unit-cache keys hold the same
 * schemas (a tool's types, its validators, the client's output check), and at 1,000 tools writing
 * each one out again is a visible part of a warm run. Schemas are never changed once the model
 * is built, so the text stays true.
 */
const texts = new WeakMap<SchemaObject, string>();

export function schemaText(schema: SchemaObject): string {
  let text = texts.get(schema);
  if (text === undefined) {
    text = JSON.stringify(schema);
    texts.set(schema, text);
  }
  return text;
}
