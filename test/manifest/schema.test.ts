import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { MANIFEST_VALIDATOR_URL } from '../../src/load/manifest-validator-paths.js';
import { manifestValidatorSource } from '../../src/load/manifest-validator-source.js';
import { MANIFEST_PROTOCOL_VERSIONS } from '../../src/model/service.js';
import { fixture } from './helpers.js';

const schema = JSON.parse(readFileSync(new URL('../../schema/manifest.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
type Node = { [key: string]: unknown };

describe('schema/manifest.schema.json', () => {
  test('is a valid 2020-12 schema that compiles in strict mode', () => {
    const ajv = new Ajv2020.default({ strict: true, allowUnionTypes: true });
    ajv.addKeyword('x-expect');
    ajv.addKeyword('x-hint');
    expect(ajv.validateSchema(schema)).toBe(true);
    const validate = ajv.compile(schema);
    expect(validate(parse(readFileSync(fixture('valid/manifest.yaml'), 'utf8')))).toBe(true);
    expect(validate(JSON.parse(readFileSync(fixture('valid/manifest.json'), 'utf8')))).toBe(true);
    expect(validate({ server: { name: 'x', version: '1' }, tool: [] })).toBe(false);
  });

  test('every property has a description or title, for editor completion', () => {
    const defs = schema.$defs as Record<string, Node>;
    const undocumented: string[] = [];
    const visit = (node: Node, at: string): void => {
      for (const [name, raw] of Object.entries((node.properties as Record<string, Node> | undefined) ?? {})) {
        const target = typeof raw.$ref === 'string' ? defs[raw.$ref.split('/').pop()!] : undefined;
        if (!raw.description && !raw.title && !target?.description && !target?.title) undocumented.push(`${at}/properties/${name}`);
        visit(raw, `${at}/properties/${name}`);
      }
      if (typeof node.items === 'object' && node.items !== null) visit(node.items as Node, `${at}/items`);
    };
    visit(schema, '');
    for (const [name, def] of Object.entries(defs)) visit(def, `/$defs/${name}`);
    expect(undocumented).toEqual([]);
  });

  test('lists exactly the revisions the model builder knows', () => {
    const versions = ((schema.properties as Node).protocol as Node).properties as Node;
    expect(((versions.versions as Node).items as Node).enum).toEqual([...MANIFEST_PROTOCOL_VERSIONS].sort());
  });
});

describe('schema/manifest.validator.cjs, the precompiled validator the loader uses', () => {
  test('is what compiling schema/manifest.schema.json gives today (else: npm run -s build && node scripts/manifest-validator.mjs)', () => {
    expect(readFileSync(MANIFEST_VALIDATOR_URL, 'utf8')).toBe(manifestValidatorSource());
  });

  test('reports what a fresh compile of the schema reports, parent schemas included', () => {
    const precompiled = createRequire(import.meta.url)(fileURLToPath(MANIFEST_VALIDATOR_URL)) as ValidateFunction;
    const ajv = new Ajv2020.default({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
    ajv.addKeyword({ keyword: 'x-expect', schemaType: 'string' });
    ajv.addKeyword({ keyword: 'x-hint', schemaType: 'string' });
    const compiled = ajv.compile(schema);
    const bad = [
      { server: { name: 'x', version: '1' }, tool: [] },
      { server: { name: 'no spaces allowed', version: 1 }, tools: [{ name: 'a b', inputSchema: { type: 'string' } }, { name: 'c' }] },
      { server: {}, protocol: { versions: ['1999-01-01', '2025-11-25', '2025-11-25'] }, prompts: [{ arguments: 'x' }] },
    ];
    for (const manifest of bad) {
      expect(precompiled(manifest)).toBe(false);
      compiled(manifest);
      expect(precompiled.errors).toEqual(compiled.errors);
    }
    expect(precompiled(parse(readFileSync(fixture('valid/manifest.yaml'), 'utf8')))).toBe(true);
  });
});
