/**
 * json-schema-to-typescript's declarations laid out without prettier (declarations-layout.ts) are
 * prettier's bytes whenever the direct layout takes a unit, over every tool of the test fixtures
 * and 300 tools of the scale manifest, and it takes nearly all of the latter.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manifestText } from '../../bench/scale/make-manifest.mjs';
import { toolTypeNames } from '../../src/emit/shared/naming.js';
import { declarationsLayout, splitDeclarations } from '../../src/emit/types/declarations-layout.js';
import { layoutDeclarations } from '../../src/emit/types/type-unit-jobs.js';
import { compileToolUnit } from '../../src/emit/types/tool-unit.js';
import type { ServiceModel } from '../../src/model/service-model.js';
import { formatUnit } from '../../src/printer/format.js';
import { loadModel, repoRoot } from '../server/support.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-declarations-layout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FIXTURES = [
  'examples/weather/manifest.yaml',
  'examples/conformance/manifest.yaml',
  'test/fixtures/server/hostile/manifest.yaml',
  'test/fixtures/server/no-output/manifest.yaml',
  'test/fixtures/server/resources-prompts/manifest.yaml',
  'test/fixtures/client/typed/manifest.yaml',
  'test/fixtures/matrix/manifest.yaml',
];

/** Every tool's unit of `model`, unformatted, as json-schema-to-typescript gives it. */
async function rawUnits(model: ServiceModel): Promise<string[]> {
  const names = toolTypeNames(model);
  return Promise.all(model.tools.map((tool) => compileToolUnit(tool, names.get(tool.name) as { input: string; output?: string }, new Map())));
}

/** How many units the direct layout took; fails on the first whose bytes are not prettier's. */
async function compare(units: string[]): Promise<number> {
  const formatted = await Promise.all(units.map((unit) => formatUnit(unit, undefined)));
  let taken = 0;
  units.forEach((unit, i) => {
    const direct = declarationsLayout(unit);
    if (direct === undefined) return;
    taken++;
    expect(direct, unit).toBe(formatted[i]);
  });
  return taken;
}

describe('declarationsLayout', () => {
  it("prints prettier's bytes for every fixture tool it takes", async () => {
    let taken = 0;
    for (const fixture of FIXTURES) taken += await compare(await rawUnits(await loadModel(join(repoRoot, fixture))));
    expect(taken).toBeGreaterThan(10);
  });

  it("prints prettier's bytes for the scale manifest's tools, and takes at least 95 % of them", async () => {
    const manifest = join(dir, 'manifest.json');
    writeFileSync(manifest, manifestText({ tools: 300 }));
    const units = await rawUnits(await loadModel(manifest));
    expect(await compare(units)).toBeGreaterThanOrEqual(Math.ceil(units.length * 0.95));
  });

  it('takes comments, quoted keys, literals with quotes, nested arrays and unions; declines what prettier would change or break another way', async () => {
    const taken = [
      'export interface A {\n/**\n * The city.\n *\n * Quoted: "x" and \'y\'.\n */\ncity: string\n"a-b"?: ("it\'s" | "say \\"hi\\"" | 3 | -1 | null)\nlist?: (string | number)[][]\nnested: {\ninner?: {\n[k: string]: unknown\n}[]\n}\n}\nexport type B = ("x" | "y")\n\nexport interface C {}\n',
    ];
    expect(await compare(taken)).toBe(1);
    const declined = [
      'export interface A {\n"plain"?: string\n}\n',
      'export interface A {\nx: Generic<A>\n}\n',
      'export interface A {\nx: "caf\u00e9"\n}\n',
      'export interface A {\nx: 1.5\n}\n',
    ];
    for (const unit of declined) expect(declarationsLayout(unit), unit).toBeUndefined();
  });

  it("lays out object types inside unions as prettier does: `{…} | null` hugged, any other union one member a line; empty interfaces closed on their line", async () => {
    const body = (name: string): string => `{\n/**\n * The ${name}.\n */\n${name}: string\n"x-${name}"?: (number | null)\n[k: string]: unknown\n}`;
    const units = [
      'export interface Empty {\n\n}\n\nexport interface B {\nitems: string[]\n}\n',
      `export interface A {\nx: (${body('a')} | null)\ny?: (null | ${body('b')})\n}\n`,
      `export interface A {\nlist: (${body('a')}[] | null)\ngrid?: (${body('b')}[][] | null)\n}\n`,
      `export interface A {\nx: (string | ${body('a')} | ${body('b')}[] | null)\ny: (${body('c')} | Foo)\n}\n`,
      `export interface A {\nouter: ({\n/**\n * Nested.\n */\ninner: (${body('a')}[] | null)\nmore?: (${body('b')} | null)\n} | null)\n}\n`,
      `export type T = (${body('a')} | null)\n`,
      `export type T = (${body('a')}[] | null)\n`,
      `export type T = (string | ${body('a')})\n`,
      `export type T = ${body('a')}[]\n`,
    ];
    expect(await compare(units)).toBe(units.length);
    // Still prettier's: an object type intersected with another, a lone object type in parentheses.
    for (const unit of [`export interface A {\nx: (${body('b')} & ${body('a')})\n}\n`, `export interface A {\nx: (${body('a')})\n}\n`]) {
      expect(declarationsLayout(unit), unit).toBeUndefined();
    }
  });

  it('takes tuples, parentheses around a lone type and unions inside unions as prettier prints them', async () => {
    const long = (n: number): string => Array.from({ length: n }, (_, i) => `VeryLongTypeName${'X'.repeat(i * 3)}${i}`).join(' | ');
    const units = [
      'export interface A {\nx: [string, number]\ny: (string)\nz?: (string | ("patch")[])\n}\n',
      'export interface A {\nlist: [string, ...(string)[]]\npairs?: [(number | string), (number | string)][]\nbounded: ([] | [string] | [string, string])\nrest: [number, number, ...(number)[]]\n}\n',
      'export interface A {\naccount: ((SimpleUser | Enterprise) | null)\nvalue?: ((string | number | boolean | string[]) | null)\n}\n',
      // 93 characters: too wide beside `moved: `, not on a line of its own.
      `export interface A {\nmoved: ((${'A'.repeat(30)} | ${'B'.repeat(30)} | ${'C'.repeat(18)}) | null)\n}\n`,
      'export type T = ([] | [("a" | "b")] | [("a" | "b"), ("a" | "b")])\n',
    ];
    // Too wide for one line even moved: broken inside the inner parentheses too.
    units.push(`export interface A {\nbroken: ((${long(4)}) | null)\n}\n`);
    expect(await compare(units)).toBe(units.length);
  });

  it('takes intersections as prettier prints them: names, `Name & {…}` on the head line or in a broken union, `(union) & {…}`, and a nested union broken inside its parentheses', async () => {
    const body = (name: string): string => `{\n/**\n * The ${name}.\n */\n${name}: string\n[k: string]: unknown\n}`;
    const wide = (n: number, w: number): string => Array.from({ length: n }, (_, i) => `Name${String(i).padStart(w, 'x')}`).join(' | ');
    const units = [
      `export interface A {\nrepo?: (Repository & ${body('a')})\nowner: ((SimpleUser & ${body('b')}) | null)\n}\n`,
      `export type T = (RulesetVersion & ${body('a')})\n`,
      `export type U = ((SimpleUser & ${body('a')}) | null)\n`,
      'export type V = (First & Second)\nexport type W = ((AaaaaaaaaaaaaaaaaaaaA & BbbbbbbbbbbbbbbbbbbbbbbB) | (CcccccccccccccccccccC & DdddddddddddddddddddddD) | null)\n',
      `export interface A {\nbody: ((${body('a')} | (string | number | boolean | null | unknown[])) & ${body('b')})\nother?: (${body('c')} | (string | number | boolean | null | unknown[]))\n}\n`,
      `export type X = ((${wide(6, 18)}) | null)\nexport interface B {\nx?: ((${wide(3, 30)}) | (${wide(5, 20)}) | null)\n}\n`,
    ];
    expect(await compare(units)).toBe(units.length);
  });

  it('lays out a unit it declines a declaration at a time, prettier getting only the declarations it declines, to the same bytes', async () => {
    const declined = 'export interface Odd {\nx: Generic<A>\n}';
    const unit = `/**\n * First.\n */\nexport interface A {\n/**\n * Member.\n */\nx?: (string | null)\n}\n\n${declined}\nexport type B = ("x" | "y")\n\n\n/**\n * Last.\n */\nexport interface C {\n\n}\n`;
    expect(declarationsLayout(unit)).toBeUndefined();
    const pieces = splitDeclarations(unit);
    expect(pieces?.map((p) => [p.text.split('\n')[0], p.blankBefore])).toEqual([
      ['/**', false],
      ['export interface Odd {', true],
      ['export type B = ("x" | "y")', false],
      ['/**', true],
    ]);
    expect(pieces?.filter((p) => declarationsLayout(p.text) === undefined).map((p) => p.text)).toEqual([`${declined}\n`]);
    expect(await layoutDeclarations(unit)).toBe(await formatUnit(unit, undefined));
    // A comment of its own at the top level: the whole unit is prettier's.
    expect(splitDeclarations(`/**\n * Loose.\n */\n\n${declined}\n`)).toBeUndefined();
  });

  it('breaks a union too wide for its line as prettier does: moved to the next line, else one member a line', async () => {
    const units: string[] = [`export interface A {\nx?: (${Array.from({ length: 12 }, (_, i) => `"value_number_${i}"`).join(' | ')})\n}\n`];
    for (let count = 2; count <= 14; count++) {
      const union = Array.from({ length: count }, (_, i) => `"value_${'v'.repeat(i % 4)}${i}"`).join(' | ');
      units.push(`export interface A {\nstate?: (${union})\nnested: {\n"deep-key": (${union} | (string | number)[] | null)\n}\n}\n`);
      units.push(`export type B = (${union})\n`);
    }
    const taken = await compare(units);
    expect(taken).toBe(units.length);
    const laidOut = units.map((unit) => declarationsLayout(unit) as string);
    expect(laidOut.some((text) => /state\?:\n {4}'value_0' \| /.test(text))).toBe(true);
    expect(laidOut.some((text) => /state\?:\n {4}\| 'value_0'\n {4}\| /.test(text))).toBe(true);
    expect(laidOut.some((text) => /export type B =\n {2}\| 'value_0'\n/.test(text))).toBe(true);
  });

  it('takes JSDoc comments of any width and text (prettier keeps them as they are), not a comment holding a line terminator', async () => {
    const long = `The slug version of the enterprise team name. You can also substitute this value with the enterprise team id. ${'w'.repeat(80)}`;
    const taken = [
      `export interface A {\n/**\n * ${long}\n */\nteam: string\n/**\n * My TEam N\u00e4me \u2014 it\u2019s \u{1F600} caf\u00e9\n */\nnested?: {\n/**\n * ${long}\n */\n"x-y": number\n}\n}\n`,
      `/**\n * ${long} \u2013 \u00fcber\n */\nexport type B = ("x" | "y")\n`,
    ];
    expect(await compare(taken)).toBe(2);
    for (const unit of ['export interface A {\n/**\n * one\u2028two\n */\nx: string\n}\n', 'export interface A {\nx: "caf\u00e9"\n}\n']) {
      expect(declarationsLayout(unit), unit).toBeUndefined();
    }
  });
});
