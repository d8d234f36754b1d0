/**
 * ajv's optimizing pass with names counted in one walk (ajv-linear-names.ts): the counts are
 * ajv's own on every function of real schemas, the printed validators are the same bytes, and the
 * count no longer grows with the square of the nesting depth.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodeGen, ValueScope } from 'ajv/dist/compile/codegen/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { manifestText } from '../../bench/scale/make-manifest.mjs';
import { embedAt } from '../../src/emit/shared/embed.js';
import { ajvOptimize, countNames, installLinearNames } from '../../src/emit/validators/ajv-linear-names.js';
import { compileValidatorCode } from '../../src/emit/validators/index.js';
import type { ValidatorEntry } from '../../src/emit/validators/index.js';
import { loadModel, repoRoot } from '../server/support.js';

type Root = { names: { [name: string]: number }; nodes: unknown[] };

/** The corpus: the 2025-11-25 MCP schema (every definition) and 40 tools of the scale manifest. */
async function corpus(): Promise<{ root: object; entries: ValidatorEntry[] }[]> {
  const spec = JSON.parse(readFileSync(join(repoRoot, 'schema/mcp-spec/2025-11-25/schema.json'), 'utf8')) as { $defs: object };
  const specEntries = Object.keys(spec.$defs).map((name) => ({ exportName: `validate${name}`, ref: `#/$defs/${name}`, typeName: name }));
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-names-'));
  try {
    writeFileSync(join(dir, 'manifest.json'), manifestText({ tools: 40 }));
    const model = await loadModel(join(dir, 'manifest.json'));
    const tools = model.tools.map((tool, i) => ({
      root: { $defs: { [`T${i}`]: embedAt(tool.inputSchema, `/$defs/T${i}`) } },
      entries: [{ exportName: `validateT${i}`, ref: `#/$defs/T${i}`, typeName: `T${i}` }],
    }));
    return [{ root: spec, entries: specEntries }, ...tools];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const compile = (unit: { root: object; entries: ValidatorEntry[] }): string => compileValidatorCode({ ...unit, dialect: '2020-12' }).code;

const installed = CodeGen.prototype.optimize;
afterEach(() => {
  CodeGen.prototype.optimize = installed;
});

/** `depth` nested `if` blocks, each declaring a name and using it and its parent's: uses grow linearly. */
function nestedCode(depth: number): Root {
  const gen = new CodeGen(new ValueScope({ scope: {} }), {});
  let outer = gen.let('data', 0);
  for (let i = 0; i < depth; i++) {
    const name = gen.let(`v${i}`, outer);
    gen.if(name).assign(name, outer);
    outer = name;
  }
  for (let i = 0; i < depth; i++) gen.endIf();
  return (gen as unknown as { _root: Root })._root;
}

/** The fastest of three runs of `count`, in ms. */
function fastest(count: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    count();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

describe("ajv's optimizing pass with linear name counts", () => {
  it('is installed for every ajv of the process by the module that builds ours', () => {
    // compileValidatorCode's ajv-instance.ts installed it when this file imported it.
    expect(CodeGen.prototype.optimize).not.toBe(ajvOptimize);
    expect(installLinearNames()).toBe(true);
  });

  it("counts what ajv counts, on every function of the MCP schema and of tool schemas", async () => {
    const units = await corpus();
    let functions = 0;
    CodeGen.prototype.optimize = function (this: CodeGen, passes?: number) {
      const root = (this as unknown as { _root: Root })._root;
      const theirs = Object.fromEntries(Object.entries(root.names).filter(([, n]) => n !== 0));
      const ours = Object.fromEntries(Object.entries(countNames(root as never)).filter(([, n]) => n !== 0));
      expect(ours).toEqual(theirs);
      functions++;
      installed.call(this, passes);
    };
    for (const unit of units) compile(unit);
    expect(functions).toBeGreaterThan(150);
  });

  it("prints the same validators as ajv's own pass", async () => {
    const units = await corpus();
    const ours = units.map(compile);
    CodeGen.prototype.optimize = ajvOptimize;
    expect(units.map(compile)).toEqual(ours);
  });

  it('counts a deeply nested function in time linear in its size', () => {
    // ajv's own count copies each block's map into its parent's, so 800 nested blocks copy
    // about 320,000 entries where there are 2,400 uses: over a hundred times the work.
    const root = nestedCode(800);
    expect(countNames(root as never)).toEqual(root.names);
    const theirs = fastest(() => root.names);
    const ours = fastest(() => countNames(root as never));
    expect(ours * 20).toBeLessThan(theirs);
  });
});
