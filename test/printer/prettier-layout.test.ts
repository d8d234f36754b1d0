import { format } from 'prettier';
import { describe, expect, it } from 'vitest';
import { stringLiteral } from '../../src/printer/escape.js';
import { propertyKey } from '../../src/printer/names.js';
import { PRETTIER_OPTIONS } from '../../src/printer/prettier-options.js';
import { flatLine, memberLines, prettierString, toolStatementLayout, toolStatementSource, type ToolStatementParts } from '../../src/printer/prettier-layout.js';

// Each direct printer against prettier itself (TypeScript's parser, as for whole files), over the
// widths around every line break it decides: it must print prettier's bytes or decline.

const prettier = (code: string): Promise<string> => format(code, { ...PRETTIER_OPTIONS, parser: 'typescript', filepath: 'unit.ts' });

const TEXTS = [
  '',
  'plain',
  "it's",
  "it's \"quoted\" twice's",
  "'''\"",
  'say "hi"',
  'back\\slash',
  'tab\there\nnewline',
  'line\u2028separator',
  'dollar ${x} `tick`',
  '\\"',
  "\\'",
  'x'.repeat(120),
  'caf\u00e9',
];

describe('prettierString', () => {
  it('prints every literal as prettier does, or declines non-ASCII text', async () => {
    for (const text of [...TEXTS, JSON.stringify({ a: "it's", b: 'say "x"', c: '\\' })]) {
      const literal = stringLiteral(text);
      const printed = prettierString(literal);
      if (/[^\x20-\x7e]/.test(literal)) {
        expect(printed, text).toBeUndefined();
        continue;
      }
      const expected = (await prettier(`x = ${literal};\n`)).replace(/^x =\s*/, '').slice(0, -';\n'.length);
      expect(printed, text).toBe(expected);
      expect(new Function(`return ${printed};`)()).toBe(text);
    }
  });
});

describe('memberLines', () => {
  it('prints the Tools and ToolHandlers entries of every name length as prettier does, broken or not, or declines', async () => {
    const shapes = new Set<string>();
    for (let length = 1; length <= 110; length += 3) {
      for (const name of ['n'.repeat(length), `a-${'n'.repeat(length)}`]) {
        const type = `T${'x'.repeat(Math.min(length, 60))}`;
        for (const line of [
          `  ${propertyKey(name)}: { input: ${type}Input; output: ${type}Output };`,
          `  ${propertyKey(name)}: { input: ${type}Input; output: never };`,
          `  ${propertyKey(name)}: { input?: ${type}Input; output: T.${type}Output; extra: X };`,
          `  ${propertyKey(name)}: TypedToolHandler<${type}Input, ${type}Output>;`,
          `  ${propertyKey(name)}: TypedToolHandler<${type}Input, never>;`,
        ]) {
          const printed = memberLines(line);
          if (printed === undefined) continue;
          shapes.add(printed.includes('\n') ? (printed.includes('<\n') ? 'generic broken' : 'object broken') : 'one line');
          expect(`interface U {\n${printed}\n}\n`, line).toBe(await prettier(`interface U {\n${line}\n}\n`));
        }
      }
    }
    expect([...shapes].sort()).toEqual(['generic broken', 'object broken', 'one line']);
  });

  it('declines shapes it does not know', () => {
    const long = 'n'.repeat(90);
    expect(memberLines(`  ${long}: { input: A<B>; output: C };`)).toBeUndefined();
    expect(memberLines(`  ${long}: Generic<A, B, C>;`)).toBeUndefined();
    expect(memberLines(`  ${long}: (input: A) => B;`)).toBeUndefined();
    expect(memberLines(`  "caf\u00e9${long}": { input: A; output: B };`)).toBeUndefined();
  });
});

describe('flatLine', () => {
  it('prints one-line interface members as prettier does, or declines', async () => {
    const names = ['get_weather', 'a-b', "it's", 'x"y', '__proto__', '123', 'with space', 'caf\u00e9', 'n'.repeat(70), 'n'.repeat(95)];
    let printed = 0;
    for (const name of names) {
      for (const line of [
        `  ${propertyKey(name)}: { input: GetWeatherInput; output: never };`,
        `  ${propertyKey(name)}: ToolHandler<InputOrUnknown<GetWeatherInput>, GetWeatherOutput>;`,
      ]) {
        const flat = flatLine(line);
        if (flat === undefined) continue;
        printed++;
        expect(`interface U {\n${flat}\n}\n`, name).toBe(await prettier(`interface U {\n${line}\n}\n`));
      }
    }
    // The ordinary names must take the direct path, or the test proves nothing.
    expect(printed).toBeGreaterThanOrEqual(12);
  });
});

describe('toolStatementLayout', () => {
  it('prints the server tool statement as prettier does at every width it takes, and takes the common ones', async () => {
    let printed = 0;
    let declined = 0;
    let withinThen = 0;
    const ids = [1, 2, 4, 6, 9, 12, 20, 30, 40, 45, 48, 50, 52, 53, 54, 55, 56, 58, 60, 62, 66, 70, 74, 78, 80, 85, 90];
    for (const length of ids) {
      const id = `t${'a'.repeat(length - 1)}`;
      const pascal = `T${'a'.repeat(length - 1)}`;
      for (const output of [false, true]) {
        for (const wire of [
          { name: id },
          { name: id, description: `${'d'.repeat(40)}'s` },
          { name: id, description: 'x'.repeat(200), inputSchema: { type: 'object' } },
          { name: id, description: `My TEam N\u00e4me \u2014 it\u2019s \u{1F600} "q" \u2028 ${'w'.repeat(length)}` },
        ]) {
          for (const [name, facts] of [[id, []], [`${id}'s`, ["taskSupport: 'optional'", 'objectOutput: false']]] as const) {
            const parts: ToolStatementParts = {
              constant: `tool_${id}`,
              wireLiteral: stringLiteral(JSON.stringify(wire)),
              nameLiteral: stringLiteral(name),
              moduleLiteral: stringLiteral(`./validators/${id}.js`),
              facts,
              exports: output ? [`validateInput: m.validate${pascal}Input`, `validateOutput: m.validate${pascal}Output`] : [`validateInput: m.validate${pascal}Input`],
            };
            const layout = toolStatementLayout(parts);
            if (layout === undefined) {
              // Identifiers of 50 characters and less (nearly every real tool) must print directly.
              if (length <= 50) declined++;
              continue;
            }
            printed++;
            if (layout.includes('.then(\n')) withinThen++;
            expect(layout, JSON.stringify(parts)).toBe(await prettier(toolStatementSource(parts)));
          }
        }
      }
    }
    expect(declined).toBe(0);
    expect(printed).toBeGreaterThan(150);
    // Long module paths (GitHub's 60-character tool ids) take the layout with the arrow inside `.then(`.
    expect(withinThen).toBeGreaterThan(20);
  });

  it('declines non-ASCII text where its width counts (the name; the text keeps its line at any width)', () => {
    const parts: ToolStatementParts = {
      constant: 'tool_x',
      wireLiteral: stringLiteral(JSON.stringify({ name: 'x', description: 'caf\u00e9' })),
      nameLiteral: stringLiteral('caf\u00e9'),
      moduleLiteral: stringLiteral('./validators/x.js'),
      facts: [],
      exports: ['validateInput: m.validateXInput'],
    };
    expect(toolStatementLayout(parts)).toBeUndefined();
  });
});
