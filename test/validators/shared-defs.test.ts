/**
 * Definitions several tools hold alike are compiled once (src/emit/validators/shared-defs.ts):
 * the server gets generated/validator-defs.ts, each tool module a stub that calls it, and the
 * client's validators.ts one `$shared` table. Verdicts and errors are those of ajv run in-process
 * on each tool's schema as it is, for valid data and for data failing deep inside a shared
 * definition (recursion included).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputValidators } from '../../src/emit/client/index.js';
import { validatorFiles } from '../../src/emit/server/index.js';
import { toolTypeNames } from '../../src/emit/shared/naming.js';
import { typesFile } from '../../src/emit/types/types-file.js';
import { createAjv } from '../../src/emit/validators/ajv-instance.js';
import { planSharedDefinitions } from '../../src/emit/validators/shared-defs.js';
import type { ServiceModel } from '../../src/model/service-model.js';
import { contentOf } from '../../src/write/planned-file.js';
import { loadModel } from '../server/support.js';
import { writeAsJavaScript } from './planned-modules.js';
import { tempDir, type TempDir, type ValidatorFn } from './support.js';

const node = { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['name'] };
const user = { type: 'object', properties: { login: { type: 'string' }, id: { type: 'integer', minimum: 1 }, site: { type: 'string', format: 'uri' } }, required: ['login', 'id'] };
/** Sixty more fields: an issue big enough to be worth sharing (SHARED_TEXT_THRESHOLD), as real API objects are. */
const fields = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field${i}`, { type: 'string', maxLength: 64 }]));
const issue = { type: 'object', properties: { title: { type: 'string' }, user: { $ref: '#/$defs/user' }, tree: { $ref: '#/$defs/node' }, ...fields }, required: ['title', 'user'] };

const manifest = {
  server: { name: 'shared-defs', version: '1.0.0' },
  tools: [
    { name: 'get_issue', inputSchema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }, outputSchema: { type: 'object', properties: { issue: { $ref: '#/$defs/issue' } }, required: ['issue'] } },
    { name: 'list_issues', inputSchema: { type: 'object', properties: { author: { $ref: '#/$defs/user' } } }, outputSchema: { type: 'object', properties: { items: { type: 'array', items: { $ref: '#/$defs/issue' } } }, required: ['items'] } },
    { name: 'get_user', inputSchema: { type: 'object', properties: {} }, outputSchema: { $ref: '#/$defs/user' } },
  ],
  $defs: { node, user, issue },
};

const goodIssue = { title: 't', user: { login: 'a', id: 1 }, tree: { name: 'r', children: [{ name: 'c', children: [] }] } };
const samples: Record<string, { input: unknown[]; output: unknown[] }> = {
  get_issue: {
    input: [{ id: 1 }, { id: 'x' }, {}],
    output: [goodIssue, { ...goodIssue, user: { login: 'a', id: 0 } }, { ...goodIssue, tree: { name: 'r', children: [{ children: [] }] } }, { ...goodIssue, user: { login: 'a', id: 2, site: 'not a uri' } }].map((issue) => ({ issue })),
  },
  list_issues: {
    input: [{}, { author: { login: 'a', id: 3 } }, { author: { login: 5, id: 3 } }],
    output: [{ items: [goodIssue, goodIssue] }, { items: [goodIssue, { title: 't' }] }, { items: [goodIssue, { ...goodIssue, tree: { name: 'r', children: [{ name: 'c', children: [{ name: 1 }] }] } }] }],
  },
  get_user: { input: [{}], output: [{ login: 'a', id: 1 }, { login: 'a' }, { login: 'a', id: 1.5 }] },
};

let dir: TempDir;
let model: ServiceModel;

beforeAll(async () => {
  dir = tempDir('shared-defs');
  const file = dir.write('manifest.json', JSON.stringify(manifest));
  model = await loadModel(file);
});

afterAll(() => dir.remove());

describe('shared definitions in the generated validators', () => {
  it('plans the definitions two or more schemas hold alike, big enough to pay, with what they reach', () => {
    const schemas = model.tools.flatMap((t) => [t.inputSchema, ...(t.outputSchema ? [t.outputSchema] : [])]);
    // The issue is big: it is shared, and the user and node it reaches with it. (A root `$ref`, as
    // get_user's output, is the definition itself, not a copy under `$defs`.)
    expect(Object.keys(planSharedDefinitions(schemas, '$defs')?.defs ?? {})).toEqual(['issue', 'node', 'user']);
    // Small definitions held by a few tools stay with each tool.
    expect(planSharedDefinitions([{ $defs: { a: { type: 'string' } } }, { $defs: { a: { type: 'string' } } }], '$defs')).toBeUndefined();
    expect(planSharedDefinitions([{ type: 'object', $defs: { a: { type: 'string' } } }], '$defs', 0)).toBeUndefined();
    // Text that differs between two tools, or anything reaching it, stays with each tool.
    const differ = planSharedDefinitions(
      [
        { $defs: { a: { type: 'string' }, b: { $ref: '#/$defs/a' }, c: { type: 'null' } } },
        { $defs: { a: { type: 'number' }, b: { $ref: '#/$defs/a' }, c: { type: 'null' } } },
      ],
      '$defs',
      0,
    );
    expect(Object.keys(differ?.defs ?? {})).toEqual(['c']);
    // A pointer into a definition would point into its stub: that definition stays with each tool.
    const inside = planSharedDefinitions(
      [
        { properties: { x: { $ref: '#/$defs/a/properties/p' } }, $defs: { a: { properties: { p: { type: 'string' } } }, c: { type: 'null' } } },
        { $defs: { a: { properties: { p: { type: 'string' } } }, c: { type: 'null' } } },
      ],
      '$defs',
      0,
    );
    expect(Object.keys(inside?.defs ?? {})).toEqual(['c']);
    // unevaluatedProperties would need what a call evaluated: nothing is shared.
    expect(planSharedDefinitions([{ unevaluatedProperties: false, $defs: { c: { type: 'null' } } }, { $defs: { c: { type: 'null' } } }], '$defs', 0)).toBeUndefined();
  });

  it('are compiled once into validator-defs.ts, and judge as ajv does on each schema as it is', async () => {
    const planned = await validatorFiles(model, toolTypeNames(model), undefined, { workers: 0 });
    const files = await Promise.all(planned.files.map(async (f) => ({ path: f.path, text: await contentOf(f) })));
    const defs = files.find((f) => f.path === 'generated/validator-defs.ts');
    expect(defs?.text).toContain('const $shared =');
    // The tools holding copies call the table and compile none of them again (the user's
    // `minimum`); get_user's output is the user itself, its root, which calls the table too.
    for (const module of ['getIssue', 'listIssues']) {
      const text = files.find((f) => f.path === `generated/validators/${module}.ts`)?.text ?? '';
      expect(text, module).toContain('import { $shared } from "../validator-defs.js";');
      expect(text, module).toContain('$shared["issue"]');
      expect(text, module).not.toContain('must be >= 1');
      // Where the tool refers to the issue, it calls the table: no function of its own in between.
      expect(text.match(/^function validate\d+/gm), module).toHaveLength(2);
    }
    const getUser = files.find((f) => f.path === 'generated/validators/getUser.ts')?.text ?? '';
    expect(getUser).toContain('$shared["user"]');
    expect(getUser).not.toContain('must be >= 1');
    const root = join(dir.path, 'out');
    writeAsJavaScript(root, files);
    const validators = (await import(/* @vite-ignore */ pathToFileURL(join(root, 'generated/validators.js')).href)) as Record<string, ValidatorFn>;
    expect(judgedAsAjv(validators, ['input', 'output'])).toBe(10);
  });

  it("are compiled once into the client's validators.ts, and judge as ajv does", async () => {
    const planned = await outputValidators(model, toolTypeNames(model), undefined, 'js');
    const file = planned?.files.find((f) => f.path === 'validators.ts');
    const text = file === undefined ? '' : await contentOf(file);
    expect(text).toContain('const $shared =');
    // The user's `minimum`: once in the table, in no tool (get_user's output, the user as its root, calls it).
    expect(text.split('must be >= 1').length - 1).toBe(1);
    const root = join(dir.path, 'client');
    writeAsJavaScript(root, [{ path: 'validators.ts', text }]);
    const validators = (await import(/* @vite-ignore */ pathToFileURL(join(root, 'validators.js')).href)) as Record<string, ValidatorFn>;
    expect(judgedAsAjv(validators, ['output'])).toBe(7);
  });
});

describe('inline subschemas alike by content', () => {
  // A big inline object, written out in three tools (descriptions differ: ajv does not read them),
  // reaching the shared user; a small one, and one reaching a definition that differs between tools.
  const address = (description: string) => ({ type: 'object', description, properties: { owner: { $ref: '#/$defs/user' }, ...fields }, required: ['owner'] });
  const inlineManifest = {
    server: { name: 'shared-inline', version: '1.0.0' },
    tools: [
      { name: 'get_address', inputSchema: { type: 'object', properties: { id: { type: 'integer' } } }, outputSchema: { type: 'object', properties: { address: address('an address') }, required: ['address'] } },
      { name: 'set_address', inputSchema: { type: 'object', properties: { address: address('the new address'), small: { type: 'string', minLength: 2 } }, required: ['address'] } },
      { name: 'list_addresses', inputSchema: { type: 'object', properties: { small: { type: 'string', minLength: 2 } } }, outputSchema: { type: 'object', properties: { items: { type: 'array', items: address('one') } } } },
    ],
    $defs: { user },
  };
  const goodAddress = { owner: { login: 'a', id: 1 }, field0: 'x' };
  const inlineSamples: Record<string, { input: unknown[]; output: unknown[] }> = {
    get_address: { input: [{ id: 1 }], output: [{ address: goodAddress }, { address: { ...goodAddress, owner: { login: 'a', id: 0 } } }, { address: { field1: 'y' } }, { address: { ...goodAddress, field59: 'z'.repeat(65) } }] },
    set_address: { input: [{ address: goodAddress }, { address: { ...goodAddress, owner: { id: 2 } } }, { address: goodAddress, small: 'a' }], output: [] },
    list_addresses: { input: [{}], output: [{ items: [goodAddress, goodAddress] }, { items: [goodAddress, { ...goodAddress, field3: 3 }] }] },
  };
  let inlineModel: ServiceModel;
  beforeAll(async () => {
    inlineModel = await loadModel(dir.write('inline.json', JSON.stringify(inlineManifest)));
  });

  it('are planned once by their text without annotations, the outermost copy the stub; small ones stay', () => {
    const schemas = inlineModel.tools.flatMap((t) => [t.inputSchema, ...(t.outputSchema ? [t.outputSchema] : [])]);
    const shared = planSharedDefinitions(schemas, '$defs');
    const keys = Object.keys(shared?.defs ?? {});
    // The address, and the user it reaches (shared so the address's $ref resolves in the table).
    expect(keys.filter((k) => k.startsWith('inline.'))).toHaveLength(1);
    expect(keys.filter((k) => !k.startsWith('inline.'))).toEqual(['user']);
    const stubs = schemas.map((schema) => [...(shared?.inline?.get(schema)?.keys() ?? [])].map((node) => node['description']));
    expect(stubs).toEqual([[], ['an address'], ['the new address'], [], ['one']]);
    // A copy reaching a definition that differs between tools stays with each tool.
    const differ = (type: string) => ({ properties: { a: { properties: { x: { $ref: '#/$defs/d' }, ...fields } } }, $defs: { d: { type } } });
    expect(planSharedDefinitions([differ('string'), differ('number')], '$defs')).toBeUndefined();
  });

  it('judge as ajv does on each schema as it is, in the server and in the client', async () => {
    const planned = await validatorFiles(inlineModel, toolTypeNames(inlineModel), undefined, { workers: 0 });
    const files = await Promise.all(planned.files.map(async (f) => ({ path: f.path, text: await contentOf(f) })));
    for (const module of ['getAddress', 'setAddress', 'listAddresses']) {
      const text = files.find((f) => f.path === `generated/validators/${module}.ts`)?.text ?? '';
      expect(text, module).toMatch(/\$shared\["inline\.[0-9a-f]{32}"\]/);
      // The address's 60 fields are checked in the table, in no tool.
      expect(text, module).not.toContain('field59');
    }
    const root = join(dir.path, 'inline-out');
    writeAsJavaScript(root, files);
    const validators = (await import(/* @vite-ignore */ pathToFileURL(join(root, 'generated/validators.js')).href)) as Record<string, ValidatorFn>;
    expect(judgedAsAjv(validators, ['input', 'output'], inlineModel, inlineSamples)).toBe(6);

    const client = await outputValidators(inlineModel, toolTypeNames(inlineModel), undefined, 'js');
    const file = client?.files.find((f) => f.path === 'validators.ts');
    const text = file === undefined ? '' : await contentOf(file);
    // Checked in the table, before which nothing else is compiled: no tool after it checks them.
    expect(text).toContain('field59');
    expect(text.slice(text.indexOf('const $shared ='))).not.toContain('field59');
    const clientRoot = join(dir.path, 'inline-client');
    writeAsJavaScript(clientRoot, [{ path: 'validators.ts', text }]);
    const clientValidators = (await import(/* @vite-ignore */ pathToFileURL(join(clientRoot, 'validators.js')).href)) as Record<string, ValidatorFn>;
    expect(judgedAsAjv(clientValidators, ['output'], inlineModel, inlineSamples)).toBe(4);
  });
});

describe('shared definitions in the generated types', () => {
  it('declares a definition that refers to other shared ones once, by its key, in no tool again', async () => {
    const text = await typesFile(model);
    for (const name of ['Issue', 'User', 'Node']) expect(text).toMatch(new RegExp(`^export (interface|type) ${name}\\b`, 'm'));
    expect(text).not.toMatch(/_(Issue|User|Node)\b/);
    // The recursion goes through the shared name.
    expect(text).toMatch(/children\?: Node\[\]/);
  });
});

/** Each sample judged by `validators` as by ajv in-process on the tool's schema; the failures counted. */
function judgedAsAjv(validators: Record<string, ValidatorFn>, parts: readonly ('input' | 'output')[], of: ServiceModel = model, examples = samples): number {
  const names = toolTypeNames(of);
  let failures = 0;
  for (const tool of of.tools) {
    const n = names.get(tool.name);
    for (const [part, schema, exportName] of [['input', tool.inputSchema, n?.validateInput], ['output', tool.outputSchema, n?.validateOutput]] as const) {
      if (!parts.includes(part) || schema === undefined) continue;
      const reference = createAjv('2020-12', { standalone: false }).compile(schema as object);
      const generated = validators[exportName as string] as ValidatorFn;
      for (const value of examples[tool.name]?.[part] ?? []) {
        const verdict = generated(value);
        expect(verdict, `${tool.name} ${part} ${JSON.stringify(value)}`).toBe(reference(value));
        if (!verdict) {
          failures += 1;
          // schemaPath names where ajv found the keyword, which differs with how it was compiled.
          const pick = (errors: unknown[] | null | undefined): unknown => errors?.map((e) => ({ ...(e as object), schemaPath: undefined }));
          expect(pick(generated.errors), `${tool.name} ${part} ${JSON.stringify(value)}`).toEqual(pick(reference.errors));
        }
      }
    }
  }
  return failures;
}
