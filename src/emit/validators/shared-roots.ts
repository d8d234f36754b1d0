import { isSchemaObject, type SchemaObject } from '../../schema/keywords.js';
import { canonicalText, rootBody } from './shared-inline.js';

/**
 * Tool roots that are a definition. An importer inlines a response's component as the tool's
 * output (GitHub's repos_get returns `full-repository`: 500 tools, 9 MB of validators), so the
 * root is a copy of a definition that other tools hold under `$defs`. Compiled per tool, each
 * copy was code of its own; matched here, the root becomes a stub calling that definition in the
 * `$shared` table (shared-defs.ts). Roots alike with no definition to match are shared by content
 * (shared-inline.ts).
 *
 * Matched by the text ajv compiles (annotations left out): a title or examples of the root's own
 * change no verdict and no error object. The root's errors keep their `instancePath` and their
 * `schemaPath` (a compiled definition's paths start at `#`, as a compiled root's do).
 */

/**
 * Each root of `schemas` whose body is the text of a definition in `definitions` (by name: the
 * first copy of each, every copy having the same text), with that name. `definitions` hold only
 * names whose every reference reaches such names, so a `$ref` in a matched root means the same in
 * the table as in its tool.
 */
export function matchRootsToDefinitions(
  schemas: readonly SchemaObject[],
  keyword: '$defs' | 'definitions',
  definitions: ReadonlyMap<string, unknown>,
): Map<SchemaObject, string> {
  const texts = new Map<object, string>();
  const refsShared = new Map<object, boolean>();
  const names = new Set(definitions.keys());
  const byText = new Map<string, string>();
  for (const [name, value] of definitions) {
    if (!isSchemaObject(value)) continue;
    const text = canonicalText(value, texts, refsShared, names);
    if (!byText.has(text)) byText.set(text, name);
  }
  const matches = new Map<SchemaObject, string>();
  for (const schema of schemas) {
    const body = rootBody(schema, keyword);
    if (body === undefined) continue;
    const name = byText.get(canonicalText(body, texts, refsShared, names));
    if (name !== undefined && refsShared.get(body) === true) matches.set(schema, name);
  }
  return matches;
}
