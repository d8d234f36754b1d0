/**
 * A tool schema the manifest loader checked against the 2020-12 meta-schema is not checked again
 * when its validators are compiled (src/schema/meta-checked.ts); anything else still is.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMetaChecked } from '../../src/schema/meta-checked.js';
import { compileUnit } from '../../src/emit/validators/compile-unit.js';
import type { ToolValidatorUnit } from '../../src/emit/validators/tool-validators.js';
import { validatorFiles } from '../../src/emit/server/index.js';
import { outputValidators } from '../../src/emit/client/index.js';
import { toolTypeNames } from '../../src/emit/shared/naming.js';
import { loadModel } from '../server/support.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-gen-meta-checked-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('schemas checked by the loader', () => {
  it('are the 2020-12 tool schemas of a loaded manifest, not its draft-07 ones (converted, unchecked as 2020-12)', async () => {
    const manifest = join(dir, 'manifest.json');
    writeFileSync(
      manifest,
      JSON.stringify({
        server: { name: 'meta', version: '1.0.0' },
        tools: [
          { name: 'now', inputSchema: { type: 'object', properties: { q: { type: 'string' } } }, outputSchema: { type: 'object' } },
          { name: 'old', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { q: { type: 'string' } } } },
        ],
      }),
    );
    const model = await loadModel(manifest);
    const [now, old] = model.tools;
    expect(isMetaChecked(now?.inputSchema as object)).toBe(true);
    expect(isMetaChecked(now?.outputSchema as object)).toBe(true);
    expect(isMetaChecked(old?.inputSchema as object)).toBe(false);
    expect(isMetaChecked({ type: 'object' })).toBe(false);

    // The server's validators take the mark: a checked schema (here spoiled after the check, to
    // see it) compiles without a second check; the unmarked copy of it is checked and refused.
    const spoiled = now?.inputSchema as { properties: { q: { minLength?: number } } };
    spoiled.properties.q.minLength = -1;
    const single = { ...model, tools: [now as (typeof model.tools)[number]] };
    await expect(validatorFiles(single, toolTypeNames(single), undefined, { workers: 0 })).resolves.toBeDefined();
    const copy = { ...single, tools: [{ ...(now as (typeof model.tools)[number]), inputSchema: structuredClone(now?.inputSchema) as object as (typeof model.tools)[number]['inputSchema'] }] };
    await expect(validatorFiles(copy, toolTypeNames(copy), undefined, { workers: 0 })).rejects.toThrow(/schema is invalid/);
  });
});

describe('definitions shared by checked schemas', () => {
  it("are not checked again, in the server's validator-defs.ts nor in the client's validators.ts", async () => {
    const manifest = join(dir, 'shared.json');
    const fields = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`f${i}`, { type: 'string' }]));
    const ref = { type: 'object', properties: { u: { $ref: '#/$defs/user' } } };
    writeFileSync(
      manifest,
      JSON.stringify({
        server: { name: 'meta', version: '1.0.0' },
        tools: ['a', 'b'].map((name) => ({ name, inputSchema: ref, outputSchema: ref })),
        $defs: { user: { type: 'object', properties: { login: { type: 'string' }, ...fields } } },
      }),
    );
    const model = await loadModel(manifest);
    // Spoiled after the check, alike in every copy (so still shared): only a second check would see it.
    for (const tool of model.tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema] as { $defs: { user: { properties: { login: { minLength?: number } } } } }[]) schema.$defs.user.properties.login.minLength = -1;
    }
    const files = await validatorFiles(model, toolTypeNames(model), undefined, { workers: 0 });
    expect(files.files.map((f) => f.path)).toContain('generated/validator-defs.ts');
    await expect(outputValidators(model, toolTypeNames(model), undefined, 'js')).resolves.toBeDefined();
    const copied = { ...model, tools: model.tools.map((t) => ({ ...t, outputSchema: structuredClone(t.outputSchema as object) as typeof t.inputSchema })) };
    await expect(outputValidators(copied, toolTypeNames(copied), undefined, 'js')).rejects.toThrow(/schema is invalid/);
  });
});

describe('a unit marked metaChecked', () => {
  // Invalid against the meta-schema (minLength must be >= 0), yet ajv compiles it without the check.
  const unit: ToolValidatorUnit = { root: { $defs: { T: { type: 'string', minLength: -1 } } }, entries: [{ exportName: 'validateT', ref: '#/$defs/T', typeName: 'T' }] };

  it('compiles without the meta-schema check', () => {
    expect(compileUnit({ ...unit, metaChecked: true }, '2020-12').code).toContain('export const [validateT]');
  });

  it('is checked when not marked', () => {
    expect(() => compileUnit(unit, '2020-12')).toThrow(/^schema is invalid: /);
  });
});
