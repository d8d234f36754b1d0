import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
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
