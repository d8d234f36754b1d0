/**
 * A tool's root that is a shared component (src/emit/validators/shared-roots.ts): an output that is
 * a definition (as `import openapi` writes it: the component inlined as the root) and inputs alike
 * in many tools are compiled once, in the `$shared` table, and each tool calls it. No loss: every
 * tool is still validated in and out, with ajv's verdicts and errors (schemaPath included), and a
 * component changed once in the manifest changes the verdict of every tool that uses it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatorFiles } from '../../src/emit/server/index.js';
import { toolTypeNames } from '../../src/emit/shared/naming.js';
import { createAjv } from '../../src/emit/validators/ajv-instance.js';
import { planSharedDefinitions } from '../../src/emit/validators/shared-defs.js';
import type { ServiceModel } from '../../src/model/service-model.js';
import { loadModel } from '../server/support.js';
import { importServerValidators } from './planned-modules.js';
import { tempDir, type TempDir, type ValidatorFn } from './support.js';

/** Forty more fields: a component as big as real API objects (worth sharing, SHARED_TEXT_THRESHOLD). */
const fields = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field${i}`, { type: ['string', 'null'], maxLength: 64 }]));
const owner = { type: 'object', properties: { login: { type: 'string' }, id: { type: 'integer', minimum: 1 }, ...fields }, required: ['login', 'id'] };
const repo = (required: string[]) => ({ type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, owner: { $ref: '#/$defs/owner' }, ...fields }, required });
/** The same input in five tools, no definition: shared by its content. */
const repoInput = { type: 'object', properties: { owner: { type: 'string', minLength: 1 }, repo: { type: 'string', minLength: 1 }, ...fields }, required: ['owner', 'repo'], additionalProperties: false };

/** A manifest whose component `repo` requires `required`: three tools return it as their root, one lists it, one nests it. */
function manifest(required: string[]) {
  return {
    server: { name: 'shared-roots', version: '1.0.0' },
    tools: [
      { name: 'get_repo', inputSchema: repoInput, outputSchema: { $ref: '#/$defs/repo' } },
      { name: 'update_repo', inputSchema: repoInput, outputSchema: { $ref: '#/$defs/repo' } },
      // As the importer writes it: the component inlined, its own title and examples beside it.
      { name: 'fork_repo', inputSchema: repoInput, outputSchema: { ...repo(required), title: 'Fork', examples: [{ id: 1 }] } },
      { name: 'list_repos', inputSchema: { type: 'object', properties: { org: { type: 'string' } } }, outputSchema: { type: 'object', properties: { items: { type: 'array', items: { $ref: '#/$defs/repo' } } }, required: ['items'] } },
      { name: 'get_parent', inputSchema: repoInput, outputSchema: { type: 'object', properties: { parent: { $ref: '#/$defs/repo' } }, required: ['parent'] } },
    ],
    $defs: { owner, repo: repo(required) },
  };
}

const goodOwner = { login: 'octo', id: 7 };
const goodRepo = { id: 1, name: 'hello', owner: goodOwner };
/** Each tool's output wrapping of a repository. */
const wrap: Record<string, (r: unknown) => unknown> = {
  get_repo: (r) => r,
  update_repo: (r) => r,
  fork_repo: (r) => r,
  list_repos: (r) => ({ items: [goodRepo, r] }),
  get_parent: (r) => ({ parent: r }),
};

let dir: TempDir;
beforeAll(() => {
  dir = tempDir('shared-roots');
});
afterAll(() => dir.remove());

async function generated(name: string, required: string[]): Promise<{ model: ServiceModel; files: { path: string; text: string }[]; validators: Record<string, ValidatorFn> }> {
  const model = await loadModel(dir.write(`${name}.json`, JSON.stringify(manifest(required))));
  const planned = await validatorFiles(model, toolTypeNames(model), undefined, { workers: 0 });
  return { model, ...(await importServerValidators(join(dir.path, name), planned.files)) };
}

describe('tool roots that are shared components', () => {
  it('are planned as stubs: outputs that are a definition call it, inputs alike call one entry', async () => {
    const model = await loadModel(dir.write('plan.json', JSON.stringify(manifest(['id']))));
    const schemas = model.tools.flatMap((t) => [t.inputSchema, ...(t.outputSchema ? [t.outputSchema] : [])]);
    const roots = planSharedDefinitions(schemas, '$defs')?.roots;
    const byTool = model.tools.map((t) => [t.name, roots?.get(t.inputSchema)?.replace(/^inline\..*/, 'inline'), t.outputSchema && roots?.get(t.outputSchema)]);
    expect(byTool).toEqual([
      ['get_repo', 'inline', 'repo'],
      ['update_repo', 'inline', 'repo'],
      ['fork_repo', 'inline', 'repo'],
      ['list_repos', undefined, undefined],
      ['get_parent', 'inline', undefined],
    ]);
  });

  it('compile the component once; each tool calls it and judges as ajv does on its own schema', async () => {
    const { model, files, validators } = await generated('once', ['id']);
    const module = (name: string): string => files.find((f) => f.path === `generated/validators/${name}.ts`)?.text ?? '';
    for (const name of ['getRepo', 'updateRepo', 'forkRepo']) {
      expect(module(name), name).toContain('$shared["repo"]');
      // Neither the repository's fields nor the input's are compiled in the tool: both are calls, no ajv code.
      expect(module(name), name).not.toContain('field39');
      expect(module(name), name).not.toContain('function validate');
    }
    const defs = files.find((f) => f.path === 'generated/validator-defs.ts')?.text ?? '';
    expect(defs.split('"#/properties/field39/maxLength"').length - 1, 'each component once: owner, repo, the input').toBe(3);

    const names = toolTypeNames(model);
    const badRepos = [{ ...goodRepo, id: 'x' }, { ...goodRepo, owner: { login: 'o', id: 0 } }, { ...goodRepo, field3: 'y'.repeat(65) }, 'not an object', { name: 'no id' }];
    const inputs = [{ owner: 'a', repo: 'b' }, { owner: '', repo: 'b' }, { owner: 'a' }, { owner: 'a', repo: 'b', extra: 1 }, { owner: 'a', repo: 'b', field0: 3 }];
    let failures = 0;
    for (const tool of model.tools) {
      const n = names.get(tool.name);
      const cases = [
        [tool.inputSchema, n?.validateInput, tool.inputSchema === model.tools[3]?.inputSchema ? [{ org: 'x' }, { org: 1 }] : inputs],
        [tool.outputSchema, n?.validateOutput, [goodRepo, ...badRepos].map(wrap[tool.name] as (r: unknown) => unknown)],
      ] as const;
      for (const [schema, exportName, values] of cases) {
        const reference = createAjv('2020-12', { standalone: false }).compile(schema as object);
        const validate = validators[exportName as string] as ValidatorFn;
        for (const value of values) {
          const label = `${tool.name} ${JSON.stringify(value)}`;
          expect(validate(value), label).toBe(reference(value));
          // The same error objects, schemaPath included: a compiled definition's paths start at `#` as a root's do.
          if (reference.errors) failures += 1;
          expect(validate.errors ?? null, label).toEqual(reference.errors ?? null);
        }
      }
    }
    expect(failures).toBe(42);
  });

  it('lose nothing: a component changed once in the manifest changes every tool that uses it', async () => {
    const before = await generated('before', ['id']);
    const after = await generated('after', ['id', 'name']);
    const nameless = { id: 1, owner: goodOwner };
    for (const tool of before.model.tools) {
      const exportName = toolTypeNames(before.model).get(tool.name)?.validateOutput as string;
      const output = (wrap[tool.name] as (r: unknown) => unknown)(nameless);
      expect((before.validators[exportName] as ValidatorFn)(output), `${tool.name} before`).toBe(true);
      expect((after.validators[exportName] as ValidatorFn)(output), `${tool.name} after`).toBe(false);
      expect((after.validators[exportName] as ValidatorFn).errors?.[0]).toMatchObject({ keyword: 'required', params: { missingProperty: 'name' } });
    }
    // The change is in the table alone: the tool modules that call it are the same text.
    const module = (files: { path: string; text: string }[], name: string) => files.find((f) => f.path === `generated/validators/${name}.ts`)?.text;
    for (const name of ['getRepo', 'updateRepo', 'forkRepo', 'listRepos', 'getParent']) expect(module(after.files, name), name).toBe(module(before.files, name));
  });
});
