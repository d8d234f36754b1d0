/**
 * Tool validators compiled on worker threads (compile-units.ts) and through the reused ajv
 * (ajv-instance.ts) are the same bytes as compiled in-process with a fresh ajv per tool, and a run
 * with cached units compiles only what is missing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestText } from '../../bench/scale/make-manifest.mjs';
import { validatorFiles } from '../../src/emit/server/index.js';
import { toolTypeNames } from '../../src/emit/shared/naming.js';
import { embedAt } from '../../src/emit/shared/embed.js';
import type { ServiceModel } from '../../src/model/service-model.js';
import { withReusedStandaloneAjv, type ReusedAjv } from '../../src/emit/validators/ajv-instance.js';
import { compileValidatorCode } from '../../src/emit/validators/index.js';
import { workerShares } from '../../src/emit/validators/compile-units.js';
import { emitToolValidators, type Memo, type ToolValidatorUnit } from '../../src/emit/validators/tool-validators.js';
import { contentOf, type PlannedFile } from '../../src/write/planned-file.js';
import { loadModel, repoRoot } from '../server/support.js';

// Workers load the TypeScript sources through this bootstrap (see compile-units.ts).
process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'] = join(repoRoot, 'test/support/ts-worker-bootstrap.mjs');

const FIXTURES = ['examples/weather/manifest.yaml', 'test/fixtures/server/hostile/manifest.yaml', 'test/fixtures/server/no-output/manifest.yaml'];

let dir: string;
let scale: ServiceModel;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-gen-workers-'));
  const manifest = join(dir, 'manifest.json');
  writeFileSync(manifest, manifestText({ tools: 120 }));
  scale = await loadModel(manifest);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function plannedValidators(model: ServiceModel, workers: number): Promise<unknown> {
  return validatorFiles(model, toolTypeNames(model), undefined, { workers });
}

describe('tool validators on worker threads', () => {
  it('are the in-process bytes for 120 tools of the scale manifest, on one worker or two', async () => {
    const inProcess = await plannedValidators(scale, 0);
    expect(await plannedValidators(scale, 2)).toEqual(inProcess);
    expect(await plannedValidators(scale, 1)).toEqual(inProcess);
  });

  it('are the in-process bytes for the example and the server fixtures', async () => {
    for (const manifest of FIXTURES) {
      const model = await loadModel(join(repoRoot, manifest));
      expect(model.tools.length, manifest).toBeGreaterThan(0);
      expect(await plannedValidators(model, 1), manifest).toEqual(await plannedValidators(model, 0));
    }
  });

  it("reject with the in-process error when a tool's schema is invalid", async () => {
    const units: ToolValidatorUnit[] = [
      { root: { $defs: { Good: { type: 'string' } } }, entries: [{ exportName: 'validateGood', ref: '#/$defs/Good', typeName: 'Good' }] },
      { root: { $defs: { Bad: { type: 5 } } }, entries: [{ exportName: 'validateBad', ref: '#/$defs/Bad', typeName: 'Bad' }] },
    ];
    const inProcess = await emitToolValidators(units, '2020-12', './types.js', undefined, { workers: 0 }).catch((e: Error) => e.message);
    expect(inProcess).toMatch(/^schema is invalid: /);
    await expect(emitToolValidators(units, '2020-12', './types.js', undefined, { workers: 2 })).rejects.toThrow(inProcess as string);
  });
});

describe('the reused standalone ajv', () => {
  it('prints each tool as a fresh ajv would, whatever it compiled before', () => {
    const units = scale.tools.slice(0, 3).map((tool, i): ToolValidatorUnit => ({
      root: { $defs: { [`T${i}`]: embedAt(tool.inputSchema, `/$defs/T${i}`) } },
      entries: [{ exportName: `validateT${i}`, ref: `#/$defs/T${i}`, typeName: `T${i}` }],
    }));
    const compile = (unit: ToolValidatorUnit, reused?: ReusedAjv) =>
      compileValidatorCode({ root: unit.root, dialect: '2020-12', entries: unit.entries }, reused ? { reused } : { checkSchema: () => {} });
    // Through the reused ajv, each compilation after others; against a fresh ajv each (as tools
    // were compiled before: schemas checked by the caller, so no meta-schema in the ajv).
    const reused = [...units, ...units].map((unit) => withReusedStandaloneAjv('2020-12', (ajv) => compile(unit, ajv)));
    units.forEach((unit, i) => {
      const fresh = compile(unit);
      expect(fresh.code).toMatch(/\bvalidate0\b/);
      expect(reused[i]).toEqual(fresh);
      expect(reused[i + units.length]).toEqual(fresh);
    });
  });

  it('keeps nothing of a compilation once it is printed', () => {
    // The schemas an ajv holds beside its meta-schemas (which it keeps).
    const ownSchemas = (reused: ReusedAjv) => Object.keys(reused.ajv.schemas).filter((key) => !key.startsWith('https://json-schema.org/'));
    const schema = embedAt(scale.tools[0]!.inputSchema, '/$defs/T');
    let scopeUsed: unknown;
    const left = withReusedStandaloneAjv('2020-12', (reused) => {
      compileValidatorCode({ root: { $defs: { T: schema } }, dialect: '2020-12', entries: [{ exportName: 'validateT', ref: '#/$defs/T', typeName: 'T' }] }, { reused });
      expect(ownSchemas(reused).length).toBeGreaterThan(0);
      scopeUsed = reused.ajv.scope;
      return reused;
    });
    // The same instance, emptied: no schema of the tool, and not the scope that named its code.
    expect(ownSchemas(left)).toEqual([]);
    expect(left.ajv.scope).not.toBe(scopeUsed);
  });
});

describe('a run with cached units', () => {
  it('compiles only the tools the memo does not know', async () => {
    const store = new Map<string, string>();
    let computed = 0;
    const memo: Memo = (kind, input, compute) => {
      const key = `${kind}\0${input}`;
      const known = store.get(key);
      if (known !== undefined) return known;
      const value = compute();
      computed++;
      store.set(key, value);
      return value;
    };
    const names = toolTypeNames(scale);
    // A module the memo knows only by hash is made when asked for (the writer asks only when the
    // file on disk is not it): compared by content, however it is held.
    const contents = async (plan: { files: PlannedFile[]; warnings: string[] }): Promise<unknown> => ({
      warnings: plan.warnings,
      files: await Promise.all(plan.files.map(async (f) => [f.path, f.contentKey, await contentOf(f)])),
    });
    const cold = await contents(await validatorFiles(scale, names, memo, { workers: 0 }));
    // Every tool, and the definitions they share (validator-defs.ts) once.
    expect(computed).toBe(scale.tools.length + 1);

    computed = 0;
    expect(await contents(await validatorFiles(scale, names, memo, { workers: 0 }))).toEqual(cold);
    expect(computed).toBe(0);

    const changed: ServiceModel = { ...scale, tools: scale.tools.map((t, i) => (i === 7 ? { ...t, inputSchema: { ...t.inputSchema, description: 'changed' } } : t)) };
    const warm = await validatorFiles(changed, names, memo, { workers: 0 });
    expect(computed).toBe(1);
    expect(await contents(warm)).toEqual(await contents(await validatorFiles(changed, names, undefined, { workers: 0 })));
  });
});

describe("the tools' validator modules", () => {
  it('are TypeScript whose exports carry their validator types, over the scale manifest and the fixtures', async () => {
    const models = [scale, ...(await Promise.all(FIXTURES.map((m) => loadModel(join(repoRoot, m)))))];
    for (const [i, model] of models.entries()) {
      const files = (await validatorFiles(model, toolTypeNames(model), undefined, { workers: 0 })).files;
      const modules = files.filter((f) => f.path.startsWith('generated/validators/'));
      expect(modules.length, String(i)).toBe(model.tools.length);
      for (const module of modules) {
        expect(module.path).toMatch(/\.ts$/);
        expect(module.content, module.path).toMatch(/^\/\/ @ts-nocheck\n/);
        expect(module.content, module.path).toMatch(/^export const \[[^\]]+\]: \[Validator<Types\.[^\n]*\] = \(\(\) => \{$/m);
      }
      expect(files.find((f) => f.path === 'generated/validators.ts')?.content, String(i)).toContain('export type { ValidationIssue, Validator } from "./validator-helpers.js";');
    }
  });
});

describe('units with a memo input', () => {
  it('have their root built only when they are compiled', async () => {
    const store = new Map<string, string>();
    const memo: Memo = (kind, input, compute) => store.get(`${kind}\0${input}`) ?? (store.set(`${kind}\0${input}`, compute()), store.get(`${kind}\0${input}`) as string);
    let built = 0;
    const unit = (name: string, type: string): ToolValidatorUnit => ({
      get root() {
        built++;
        return { $defs: { [name]: { type } } };
      },
      entries: [{ exportName: `validate${name}`, ref: `#/$defs/${name}`, typeName: name }],
      memoInput: JSON.stringify([name, type]),
    });
    const cold = await emitToolValidators([unit('A', 'string'), unit('B', 'number')], '2020-12', './types.js', memo, { workers: 0 });
    expect(built).toBe(2);
    built = 0;
    const warm = await emitToolValidators([unit('A', 'string'), unit('B', 'integer')], '2020-12', './types.js', memo, { workers: 0 });
    expect(built).toBe(1);
    expect(warm.js).not.toBe(cold.js);
    expect(warm).toEqual(await emitToolValidators([unit('A', 'string'), unit('B', 'integer')], '2020-12', './types.js', undefined, { workers: 0 }));
  });

  it('gives each worker about as many validators, not units: a unit of a thousand (a client\'s shared definitions) is not left beside half the tools', () => {
    const unit = (validators: number, id: number): { id: number; entries: { exportName: string; ref: string; typeName: string }[] } => ({
      id,
      entries: Array.from({ length: validators }, (_, i) => ({ exportName: `v${i}`, ref: '#', typeName: 'unknown' })),
    });
    const units = [...Array.from({ length: 1200 }, (_, i) => unit(2, i)), unit(1000, 1200)];
    const shares = workerShares(units, 2);
    expect(shares.flat().map((u) => u.id)).toEqual(units.map((u) => u.id));
    const sizes = shares.map((share) => share.reduce((sum, u) => sum + u.entries.length, 0));
    expect(sizes).toHaveLength(2);
    expect(Math.abs((sizes[0] as number) - (sizes[1] as number))).toBeLessThanOrEqual(1000 * 0.05);
    // Never more shares than units, none empty.
    expect(workerShares([unit(5, 0)], 2).map((share) => share.length)).toEqual([1]);
    expect(workerShares(units.slice(0, 3), 2).every((share) => share.length > 0)).toBe(true);
  });
});
