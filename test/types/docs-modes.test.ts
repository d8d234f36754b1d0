/**
 * Issue 6, finding 5: the types must not depend on `--docs`. json-schema-to-typescript types a
 * schema that holds only a description (`structuredContent` in 2026-07-28) as an object, and the
 * same schema without its description as `unknown`, so `--docs full` once typed
 * `CallToolResult.structuredContent` as `{ [k: string]: unknown }` and `--docs link` as `unknown`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { KNOWN_REVISIONS } from '../../src/load/spec.js';
import { describeDiagnostics, specDir, typeCheck, typesFor, writeTempProject } from './helpers.js';

/** The code with every comment gone and one canonical layout. */
function withoutComments(code: string): string {
  const file = ts.createSourceFile('types.ts', code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  return ts.createPrinter({ removeComments: true }).printFile(file);
}

describe('types do not depend on the docs mode', () => {
  for (const revision of KNOWN_REVISIONS) {
    it(`${revision}: full, link and none give the same code once comments are stripped`, async () => {
      const full = await typesFor(revision, 'full');
      const link = await typesFor(revision, 'link');
      const none = await typesFor(revision, 'none');
      const reference = withoutComments(none);
      expect(withoutComments(link)).toBe(reference);
      expect(withoutComments(full)).toBe(reference);
      // Not vacuous: the modes do differ in their comments.
      expect(full).not.toBe(link);
    });
  }

  it("2026-07-28: the spec's example with an array as structuredContent compiles in every docs mode", async () => {
    const example = readFileSync(join(specDir, '2026-07-28', 'examples', 'CallToolResult', 'result-with-array-structured-content.json'), 'utf8');
    expect(Array.isArray((JSON.parse(example) as { structuredContent?: unknown }).structuredContent)).toBe(true);
    for (const docs of ['full', 'link', 'none'] as const) {
      const dir = writeTempProject({
        'types.ts': await typesFor('2026-07-28', docs),
        'example.ts': `import type { CallToolResult } from './types.js';\nexport const result: CallToolResult = ${example};\n`,
      });
      expect(describeDiagnostics(typeCheck(dir, ['example.ts'])), docs).toBe('');
    }
  });
});
