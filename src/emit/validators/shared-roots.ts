import { isSchemaObject, type SchemaObject } from '../../schema/keywords.js';
import { CanonicalForms, rootBody } from './shared-inline.js';

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
  const forms = new CanonicalForms(new Set(definitions.keys()));
  const byForm = new Map<number, string>();
  for (const [name, value] of definitions) {
    if (!isSchemaObject(value)) continue;
    const form = forms.formOf(value);
    if (!byForm.has(form)) byForm.set(form, name);
  }
  const matches = new Map<SchemaObject, string>();
  for (const schema of schemas) {
    const body = rootBody(schema, keyword);
    if (body === undefined) continue;
    const name = byForm.get(forms.formOf(body));
    if (name !== undefined && forms.refsShared(body)) matches.set(schema, name);
  }
  return matches;
}
