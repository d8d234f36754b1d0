import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../src/emit/validators/ajv-instance.js';
import { emitValidators, type EmitValidatorsOptions } from '../../src/emit/validators/index.js';
import { protoMembersForAjv } from '../../src/emit/validators/ajv-schema.js';
import { exportNameFor, importEmitted, loadRevision, repoRoot, tempDir } from './support.js';

const dir = tempDir('validators-emit');
afterAll(() => dir.remove());

const ALL_FORMATS = [
  'uri', 'uri-reference', 'uri-template', 'email', 'date-time', 'date', 'time', 'byte', 'uuid',
  'hostname', 'ipv4', 'ipv6', 'regex', 'duration', 'json-pointer', 'iso-time', 'iso-date-time',
];

/** Exercises every inlined helper: formats, string length, deep equality, numeric formats. */
const kitchenSink = {
  $defs: {
    Everything: {
      type: 'object',
      properties: {
        ...Object.fromEntries(ALL_FORMATS.map((f) => [f, { type: 'string', format: f }])),
        short: { type: 'string', maxLength: 2 },
        pair: { const: { a: [1, { b: null }] } },
        unique: { type: 'array', uniqueItems: true },
        small: { type: 'integer', format: 'int32' },
      },
      additionalProperties: false,
    },
  },
};

describe('emitValidators output is a self-contained ES module', () => {
  const { js } = emitValidators({
    root: kitchenSink,
    dialect: '2020-12',
    entries: [{ exportName: 'validateEverything', ref: '#/$defs/Everything', typeName: 'Everything' }],
  });

  it('has no require, no import, no mention of ajv', () => {
    expect(js).not.toMatch(/\brequire\s*\(/);
    expect(js).not.toMatch(/^\s*import[\s{*]/m);
    expect(js).not.toMatch(/\bimport\s*\(/);
    expect(js).not.toMatch(/ajv/);
  });

  it('runs in a plain node process with nothing to resolve', () => {
    const file = dir.write('sink.mjs', js);
    const script = `
      const { validateEverything: v } = await import(${JSON.stringify(new URL(`file://${file}`).href)});
      const verdicts = [
        v({ uri: 'https://example.com/a?b#c', date: '2024-02-29', 'date-time': '2024-01-01T10:00:00Z' }),
        v({ date: '2023-02-29' }),
        v({ short: '\u{1F600}\u{1F600}' }),
        v({ short: 'abc' }),
        v({ pair: { a: [1, { b: null }] } }),
        v({ pair: { a: [1, { b: 0 }] } }),
        v({ unique: [{ x: 1 }, { x: 1 }] }),
        v({ small: 2147483648 }),
        v({ byte: 'aGk=' }),
        v({ byte: 'aGk' }),
      ];
      process.stdout.write(JSON.stringify(verdicts));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir.path, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([true, false, true, false, true, false, false, false, true, false]);
  });
});

describe('emitValidators is deterministic', () => {
  it('gives the same bytes for the same input, across fresh runs', () => {
    const { root, dialect, defs, defsKeyword } = loadRevision('2025-11-25');
    const entries = Object.keys(defs).map((name) => ({
      exportName: exportNameFor(name),
      ref: `#/${defsKeyword}/${name}`,
      typeName: name,
    }));
    const options: EmitValidatorsOptions = { root, dialect, entries, typesModule: './types.js' };
    const first = emitValidators(options);
    const second = emitValidators(structuredClone(options));
    expect(second.js).toBe(first.js);
    expect(second.dts).toBe(first.dts);
  });
});

describe('emitValidators emits only what entries reach', () => {
  it('leaves unreached definitions out', () => {
    const root = {
      $defs: {
        Used: { type: 'object', properties: { inner: { $ref: '#/$defs/Inner' } } },
        Inner: { type: 'string', pattern: '^inner-marker$' },
        Unused: { type: 'string', pattern: '^unused-marker$' },
      },
    };
    const { js } = emitValidators({ root, dialect: '2020-12', entries: [{ exportName: 'validateUsed', ref: '#/$defs/Used', typeName: 'Used' }] });
    expect(js).toContain('inner-marker');
    expect(js).not.toContain('unused-marker');
  });

  it('accepts definitions refs for a $defs document and the reverse', async () => {
    const draft07 = { definitions: { A: { type: 'object', required: ['x'], properties: { x: { $ref: '#/definitions/B' } } }, B: { type: 'integer' } } };
    const { js } = emitValidators({ root: draft07, dialect: 'draft-07', entries: [{ exportName: 'validateA', ref: '#/$defs/A', typeName: 'A' }] });
    const { validateA } = await importEmitted(dir, 'draft07', js);
    expect(validateA!({ x: 1 })).toBe(true);
    expect(validateA!({ x: 1.5 })).toBe(false);
  });

  it('reports what ajv warns about instead of printing it', () => {
    const { warnings } = emitValidators({
      root: { $defs: { X: { type: 'string', format: 'made-up' } } },
      dialect: '2020-12',
      entries: [{ exportName: 'validateX', ref: '#/$defs/X', typeName: 'X' }],
    });
    expect(warnings).toEqual([expect.stringContaining('unknown format "made-up" ignored')]);
  });

  it('fails loudly on a ref that points nowhere', () => {
    expect(() =>
      emitValidators({ root: { $defs: {} }, dialect: '2020-12', entries: [{ exportName: 'validateX', ref: '#/$defs/X', typeName: 'X' }] }),
    ).toThrow(/nothing at #\/\$defs\/X/);
  });

  it('refuses export names that could collide with ajv or helper bindings', () => {
    for (const exportName of ['validate12', '$table', 'class', 'a-b']) {
      expect(() =>
        emitValidators({ root: { $defs: { X: {} } }, dialect: '2020-12', entries: [{ exportName, ref: '#/$defs/X', typeName: 'X' }] }),
      ).toThrow(/cannot be an export name/);
    }
  });
});

describe('errors say where and what', () => {
  it('reports instancePath and message, one issue (allErrors off)', async () => {
    const root = { $defs: { P: { type: 'object', properties: { items: { type: 'array', items: { type: 'object', required: ['id'] } } } } } };
    const { js } = emitValidators({ root, dialect: '2020-12', entries: [{ exportName: 'validateP', ref: '#/$defs/P', typeName: 'P' }] });
    const { validateP } = await importEmitted(dir, 'errors', js);
    expect(validateP!({ items: [{ id: 1 }, {}] })).toBe(false);
    expect(validateP!.errors).toEqual([
      expect.objectContaining({ instancePath: '/items/1', keyword: 'required', message: "must have required property 'id'" }),
    ]);
    expect(validateP!({ items: [] })).toBe(true);
    expect(validateP!.errors).toBeNull();
  });
});

describe('schema literals hold what the code reads', () => {
  it('keeps a type list and an enum, not the schema around them; errors are ajv\'s', async () => {
    const filler = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`filler${i}`, { type: 'string', maxLength: 9 }]));
    const P = { type: 'object', properties: { bio: { type: ['string', 'null'] }, tags: { type: 'array', items: { enum: ['a', 'b', 'c', 'd', 'e', 'f'] } }, ...filler } };
    const { js } = emitValidators({ root: { $defs: { P } }, dialect: '2020-12', entries: [{ exportName: 'validateP', ref: '#/$defs/P', typeName: 'P' }] });
    const literals = js.match(/^const schema\d+ = .*$/gm) ?? [];
    expect(literals.length).toBeGreaterThan(0);
    for (const literal of literals) expect(literal).not.toContain('filler');
    const { validateP } = await importEmitted(dir, 'literals', js);
    const reference = createAjv('2020-12', { standalone: false }).compile(P);
    for (const value of [{ bio: 1 }, { tags: ['a', 'z'] }, { bio: null, tags: ['f'] }, { filler3: 'x'.repeat(10) }]) {
      expect(validateP!(value), JSON.stringify(value)).toBe(reference(value));
      expect(validateP!.errors ?? null).toEqual(reference.errors ?? null);
    }
  });
});

const QUOTES = 'q"\'`${x}\\';
const CODE_PATTERN = '"; globalThis.owned = 4; //';

/** Property names, descriptions and values an attacker would choose. */
function hostileRoot(definitionName: string): Record<string, unknown> {
  const pointerToken = encodeURIComponent(definitionName.replace(/~/g, '~0').replace(/\//g, '~1'));
  // JSON.parse, so `__proto__` keys are real properties, as they are when a loader reads a file.
  const properties = JSON.parse('{"__proto__": {"type": "string", "description": "\\u2028globalThis.pwned = 3;"}}');
  Object.assign(properties, {
    constructor: { type: 'number' },
    toString: { type: 'number' },
    [QUOTES]: { type: 'string', pattern: CODE_PATTERN },
    'line\u2028sep': { enum: ['require("fs")', '\u2029', '*/'] },
    polluter: { const: JSON.parse('{"__proto__": {"polluted": true}}') },
    ref: { $ref: `#/$defs/${pointerToken}` },
  });
  const evil = {
    type: 'object',
    description: '*/ globalThis.pwned = 1; /*',
    title: '`${globalThis.pwned = 2}`',
    required: ['__proto__'],
    properties,
  };
  const defs = JSON.parse('{}') as Record<string, unknown>;
  defs['Evil'] = evil;
  defs[definitionName] = { type: 'integer', maximum: 9, $comment: '*/ globalThis.pwned = 5; /*' };
  return { $defs: defs };
}

describe('hostile schemas are data, never code', () => {
  // A plain definition name takes the per-definition path; a strange one the whole-document path.
  for (const [index, definitionName] of ['Target', '1 */ "x\'`${y}/~'].entries()) {
    it(`cannot inject code or lose __proto__ keys (definition ${JSON.stringify(definitionName)})`, async () => {
      const root = hostileRoot(definitionName);
      const out = emitValidators({
        root,
        dialect: '2020-12',
        entries: [{ exportName: 'validateEvil', ref: '#/$defs/Evil', typeName: 'Tools["*/ x"]["a\\"b"]' }],
        typesModule: './types.js',
      });
      // Annotations are dropped entirely; everything else is only ever a string literal.
      expect(out.js).not.toContain('pwned');
      expect(out.js).toContain('JSON.parse("'); // the schema literal holding a "__proto__" key
      const { validateEvil } = await importEmitted(dir, `hostile-${index}`, out.js);
      expect((globalThis as Record<string, unknown>)['owned']).toBeUndefined();

      const reference = createAjv('2020-12', { standalone: false });
      // ajv skips `__proto__` members; emitValidators rewrites them (protoMembersForAjv), and so
      // must the in-process reference to judge alike.
      reference.addSchema(protoMembersForAjv(root as Parameters<typeof protoMembersForAjv>[0]) as object, 'hostile');
      const validateReference = reference.getSchema('hostile#/$defs/Evil')!;
      const withProto = (extra: Record<string, unknown>): unknown => Object.assign(JSON.parse('{"__proto__": "a"}'), extra);
      const samples: unknown[] = [
        {},
        withProto({}),
        JSON.parse('{"__proto__": 1}'),
        withProto({ constructor: 1, toString: 2 }),
        withProto({ constructor: 'x' }),
        withProto({ polluter: JSON.parse('{"__proto__": {"polluted": true}}') }),
        withProto({ polluter: {} }),
        withProto({ 'line\u2028sep': 'require("fs")' }),
        withProto({ 'line\u2028sep': 'require(fs)' }),
        withProto({ [QUOTES]: CODE_PATTERN }),
        withProto({ [QUOTES]: 'harmless' }),
        withProto({ ref: 5 }),
        withProto({ ref: 10 }),
        withProto({ other: 1 }),
      ];
      const verdicts = samples.map((s) => validateEvil!(s));
      expect(verdicts).toEqual(samples.map((s) => validateReference(s)));
      // A `__proto__` member is judged like any other (sample 3 has a number where a string is
      // due: issue 6, ajv alone skipped it), and `required` and `const` see the key as data.
      expect(verdicts).toEqual([false, true, false, true, false, true, false, true, false, true, false, true, false, true]);
      expect((globalThis as Record<string, unknown>)['owned']).toBeUndefined();
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      expect(out.dts).toContain('Validator<Types.Tools["*/ x"]["a\\"b"]>');
    });
  }
});

describe('an $id cannot close the comment ajv puts it in', () => {
  it('runs no code from an $id, in a nested schema or at the root', async () => {
    const id = 'https://example.com/x*/globalThis.owned = 1;/*';
    const roots = [{ $defs: { A: { $id: id, type: 'string' } } }, { $id: id, $defs: { A: { type: 'string' } } }];
    for (const [index, root] of roots.entries()) {
      for (const ref of ['#/$defs/A', '#']) {
        const { js } = emitValidators({ root, dialect: '2020-12', entries: [{ exportName: 'validateA', ref, typeName: 'A' }] });
        expect(js).not.toContain('sourceURL');
        const { validateA } = await importEmitted(dir, `id-${index}-${ref.length}`, js);
        validateA!('x');
        validateA!(1);
        expect((globalThis as Record<string, unknown>)['owned']).toBeUndefined();
      }
    }
  });
});

describe('tables', () => {
  it('map wire keys to validators on a frozen object with no prototype', async () => {
    const root = { $defs: { A: { type: 'string' }, B: { type: 'number' } } };
    const { js, dts } = emitValidators({
      root,
      dialect: '2020-12',
      entries: [
        { exportName: 'validateA', ref: '#/$defs/A', typeName: 'A' },
        { exportName: 'validateB', ref: '#/$defs/B', typeName: 'B' },
      ],
      extraExports: [{ exportName: 'byKey', entries: [['a/x', 'validateA'], ['__proto__', 'validateB']] }],
    });
    const m = (await importEmitted(dir, 'tables', js)) as unknown as { byKey: Record<string, (d: unknown) => boolean> };
    expect(Object.getPrototypeOf(m.byKey)).toBeNull();
    expect(Object.isFrozen(m.byKey)).toBe(true);
    expect(Object.keys(m.byKey)).toEqual(['a/x', '__proto__']);
    expect(m.byKey['__proto__']!(1)).toBe(true);
    expect(m.byKey['toString']).toBeUndefined();
    expect(dts).toContain('readonly "__proto__": Validator<unknown>;');
  });

  it('refuse to point at a validator that does not exist', () => {
    expect(() =>
      emitValidators({
        root: { $defs: { A: {} } },
        dialect: '2020-12',
        entries: [{ exportName: 'validateA', ref: '#/$defs/A', typeName: 'A' }],
        extraExports: [{ exportName: 'byKey', entries: [['a', 'validateMissing']] }],
      }),
    ).toThrow(/unknown validator validateMissing/);
  });
});

describe('the .d.ts', () => {
  it('type-checks under the strict tsconfig and fits the runtime Validator', () => {
    const root = {
      $defs: {
        CallToolRequest: { type: 'object', required: ['params'], properties: { params: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
        Input: { type: 'object' },
      },
    };
    const out = emitValidators({
      root,
      dialect: '2020-12',
      entries: [
        { exportName: 'validateCallToolRequest', ref: '#/$defs/CallToolRequest', typeName: 'CallToolRequest' },
        { exportName: 'validateError', ref: '#/$defs/Input', typeName: 'Error' },
        { exportName: 'validateInput', ref: '#/$defs/Input', typeName: 'Tools["get-weather"]["input"]' },
      ],
      typesModule: './types.js',
      extraExports: [{ exportName: 'requestValidators', entries: [['tools/call', 'validateCallToolRequest']] }],
    });
    // Inside the repository so the consumer can import the runtime's api.ts by relative path.
    const project = join(repoRoot, 'node_modules', '.cache', 'mcp-gen-validators-dts', String(process.pid));
    mkdirSync(project, { recursive: true });
    try {
      writeFileSync(join(project, 'validators.d.ts'), out.dts);
      writeFileSync(
        join(project, 'types.d.ts'),
        [
          'export interface CallToolRequest { params: { name: string } }',
          'export interface Error { code: number }',
          'export interface Tools { "get-weather": { input: { location: string } } }',
          '',
        ].join('\n'),
      );
      writeFileSync(
        join(project, 'consumer.ts'),
        [
          "import type { ServerDefinition, Validator as RuntimeValidator } from '../../../../src/runtime/api.js';",
          "import type { CallToolRequest } from './types.js';",
          "import { requestValidators, validateCallToolRequest, validateError, validateInput } from './validators.js';",
          '',
          'export const asRuntime: RuntimeValidator<CallToolRequest> = validateCallToolRequest;',
          "export const table: ServerDefinition['requestValidators'] = requestValidators;",
          'export function use(input: unknown): string | number {',
          '  if (validateCallToolRequest(input)) {',
          '    // @ts-expect-error the guard narrows to CallToolRequest, whose name is a string',
          '    const wrong: number = input.params.name;',
          '    return wrong;',
          '  }',
          '  if (validateError(input)) return input.code;',
          '  if (validateInput(input)) return input.location;',
          "  return validateCallToolRequest.errors?.[0]?.message ?? '';",
          '}',
          '',
        ].join('\n'),
      );
      writeFileSync(
        join(project, 'tsconfig.json'),
        JSON.stringify({ extends: '../../../../tsconfig.base.json', compilerOptions: { noEmit: true }, include: ['*.ts'] }),
      );
      const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
      const result = (() => {
        try {
          return execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
        } catch (error) {
          return String((error as { stdout?: string }).stdout ?? error);
        }
      })();
      expect(result).toBe('');
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
