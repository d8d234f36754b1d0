import type { Diagnostic } from './diagnostics.js';
import { InputError, unplacedDiagnostic } from './diagnostics.js';
import { isSchemaObject, pointerSegment, refSegmentKey, type SchemaObject } from '../schema/keywords.js';
import { mapSchema, SchemaTooDeepError, type JsonSchema } from '../schema/walk.js';

/**
 * Draft-07 `definitions` versus 2020-12 `$defs` is settled here and nowhere else: every later phase
 * sees `$defs` and refs of the form `#/$defs/<Name>…`, plus the dialect the document declared.
 */

export type SpecDialect = 'draft-07' | '2020-12';

export interface NormalizedSpec {
  dialect: SpecDialect;
  /** Definition name → schema, in document order; refs rewritten to `#/$defs/…`. */
  defs: Record<string, JsonSchema>;
  warnings: Diagnostic[];
}

/**
 * Keywords json-schema-to-typescript reads as code or as type names rather than as data
 * (`tsType` is pasted verbatim into the output). A protocol schema has no business carrying them.
 */
const CODEGEN_KEYWORDS = ['tsType', 'tsEnumNames', 'tsExtends', 'extends'] as const;

const DIALECT_URIS: ReadonlyArray<readonly [RegExp, SpecDialect]> = [
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, 'draft-07'],
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, '2020-12'],
];

export function normalizeSpecDocument(document: unknown, file: string): NormalizedSpec {
  const problem = (pointer: string, message: string, hint?: string): Diagnostic => unplacedDiagnostic(file, pointer, message, hint);

  if (!isSchemaObject(document)) {
    throw new InputError([problem('', 'a protocol schema must be a JSON object')]);
  }
  const hasDefinitions = 'definitions' in document;
  const hasDefs = '$defs' in document;
  if (hasDefinitions && hasDefs) {
    throw new InputError([problem('', 'the schema has both `definitions` and `$defs`; use one')]);
  }
  const container = hasDefs ? '$defs' : 'definitions';
  const rawDefs = document[container];
  if (!isSchemaObject(rawDefs) || Object.keys(rawDefs).length === 0) {
    throw new InputError([
      problem(
        hasDefs || hasDefinitions ? `/${container}` : '',
        'the schema has no definitions',
        'a protocol schema names its types under `$defs` (2020-12) or `definitions` (draft-07)',
      ),
    ]);
  }

  const dialect = detectDialect(document, container, problem);
  const names = new Set(Object.keys(rawDefs));
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];

  // Entries + Object.fromEntries throughout: a `__proto__` key stays an ordinary own property.
  const visit = (node: SchemaObject, pointer: string): SchemaObject => {
    const kept: Array<[string, unknown]> = [];
    for (const [key, value] of Object.entries(node)) {
      if ((CODEGEN_KEYWORDS as readonly string[]).includes(key)) {
        warnings.push(problem(`${pointer}/${key}`, `ignored \`${key}\`: schemas are data, never code`));
      } else if (key === '$id') {
        errors.push(problem(`${pointer}/$id`, 'a nested `$id` is not supported in a protocol schema', 'refer to definitions with `#/$defs/<Name>`'));
      } else if (key === '$ref') {
        const target = rewriteRef(value, names);
        if (typeof target === 'string') kept.push([key, target]);
        else errors.push(problem(`${pointer}/$ref`, target.message, 'only local refs to definitions (`#/$defs/<Name>` or `#/definitions/<Name>`) are followed'));
      } else {
        kept.push([key, value]);
      }
    }
    return Object.fromEntries(kept);
  };

  const defs: Array<[string, JsonSchema]> = [];
  try {
    for (const [name, schema] of Object.entries(rawDefs)) {
      const at = `/${container}/${pointerSegment(name)}`;
      if (typeof schema === 'boolean' || isSchemaObject(schema)) defs.push([name, mapSchema(schema, at, visit)]);
      else errors.push(problem(at, 'a definition must be a schema (an object or a boolean)'));
    }
  } catch (error) {
    if (error instanceof SchemaTooDeepError) throw new InputError([problem(error.pointer, error.message)]);
    throw error;
  }
  if (errors.length > 0) throw new InputError(errors);
  return { dialect, defs: Object.fromEntries(defs), warnings };
}

function detectDialect(
  document: SchemaObject,
  container: '$defs' | 'definitions',
  problem: (pointer: string, message: string, hint?: string) => Diagnostic,
): SpecDialect {
  const declared = document['$schema'];
  if (declared === undefined) return container === '$defs' ? '2020-12' : 'draft-07';
  const match = typeof declared === 'string' ? DIALECT_URIS.find(([uri]) => uri.test(declared)) : undefined;
  if (!match) {
    throw new InputError([
      problem('/$schema', `unsupported JSON Schema dialect ${JSON.stringify(declared)}`, 'MCP schemas use draft-07 or 2020-12'),
    ]);
  }
  return match[1];
}

/** `#/definitions/X/…` and `#/$defs/X/…` → `#/$defs/X/…`; anything else is refused with a reason. */
function rewriteRef(ref: unknown, names: ReadonlySet<string>): string | { message: string } {
  if (typeof ref !== 'string') return { message: '`$ref` must be a string' };
  const match = /^#\/(?:\$defs|definitions)\/([^/]*)(\/.*)?$/.exec(ref);
  if (!match) return { message: `unsupported $ref ${JSON.stringify(ref)}` };
  const name = refSegmentKey(match[1]!);
  if (name === undefined || !names.has(name)) return { message: `$ref ${JSON.stringify(ref)} names no definition` };
  return `#/$defs/${match[1]}${match[2] ?? ''}`;
}
