import type { SchemaObject } from './keywords.js';

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** True when the schema declares draft-07 in its `$schema` (anything else is read as 2020-12). */
export function isDraft07Schema(schema: SchemaObject): boolean {
  return typeof schema['$schema'] === 'string' && DRAFT_07.test(schema['$schema']);
}
