import { compile, type Options } from 'json-schema-to-typescript';
import type { SchemaObject } from '../../load/schema-keywords.js';

/**
 * json-schema-to-typescript as every emitter of ours calls it: no banner, no formatting (the
 * writer runs prettier), open object types and `unknown` for untyped values, and no `$ref` ever
 * followed to a file or URL (schemas reach us bundled and local). Callers hand it one root that
 * reaches every definition, so its pass over unreachable ones would only add prose. Each caller
 * adds how it names types and how strict index signatures are.
 */
export function compileTypes(schema: SchemaObject, rootName: string, options: Partial<Options>): Promise<string> {
  return compile(schema as Parameters<typeof compile>[0], rootName, {
    bannerComment: '',
    format: false,
    additionalProperties: true,
    unknownAny: true,
    declareExternallyReferenced: true,
    unreachableDefinitions: false,
    $refOptions: { resolve: { external: false } },
    ...options,
  });
}
