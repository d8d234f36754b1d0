import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { catastrophicPattern } from '../../src/load/pattern-check.js';
import { brief, problemsOf, tempProject } from './helpers.js';

const server = 'server: { name: s, version: "1" }\n';

describe('identifiers that collide after conversion', () => {
  test('get-user and get_user get distinct identifiers and a warning at the renamed one', async () => {
    const root = await tempProject({
      'manifest.yaml': `${server}tools:\n  - name: get_user\n    inputSchema: { type: object }\n  - name: get-user\n    inputSchema: { type: object }\n`,
    });
    const { model, warnings } = await loadManifest(path.join(root, 'manifest.yaml'), { displayPath: 'manifest.yaml' });
    expect(model.tools.map((t) => [t.name, t.ids])).toEqual([
      ['get_user', { pascal: 'GetUser_2', camel: 'getUser_2' }],
      ['get-user', { pascal: 'GetUser', camel: 'getUser' }],
    ]);
    expect(warnings).toEqual([
      {
        file: 'manifest.yaml',
        line: 3,
        column: 11,
        pointer: '/tools/0/name',
        message: "identifier clash: 'get_user' would be named GetUser, like 'get-user'; it is named GetUser_2 instead",
        hint: 'rename one of them if the suffix is unwelcome',
      },
    ]);
  });

  test('resources and templates share one namespace; prompts have their own', async () => {
    const root = await tempProject({
      'manifest.yaml': [
        server,
        'resources:',
        '  - { uri: "app://a", name: report-file }',
        'resourceTemplates:',
        '  - { uriTemplate: "app://r/{id}", name: report_file }',
        'prompts:',
        '  - name: report-file',
        '',
      ].join('\n'),
    });
    const { model, warnings } = await loadManifest(path.join(root, 'manifest.yaml'));
    expect(model.resources[0]!.ids.pascal).toBe('ReportFile');
    expect(model.resourceTemplates[0]!.ids.pascal).toBe('ReportFile_2');
    expect(model.prompts[0]!.ids.pascal).toBe('ReportFile');
    expect(warnings.map(brief)).toEqual([
      "6:42 /resourceTemplates/0/name identifier clash: 'report_file' would be named ReportFile, like 'report-file'; it is named ReportFile_2 instead",
    ]);
  });

  test('the same name for a resource and a template is an error, not a rename', async () => {
    const root = await tempProject({
      'manifest.yaml': `${server}resources:\n  - { uri: "app://a", name: files }\nresourceTemplates:\n  - { uriTemplate: "app://f/{+path}", name: files }\n`,
    });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'));
    expect(problems.map(brief)).toEqual(["5:45 /resourceTemplates/0/name duplicate resource name 'files' (first at resources/0/name, line 3)"]);
  });
});

describe('warnings that do not stop generation', () => {
  test('tsType is stripped (schemas are data, never code), risky patterns and unknown keywords are flagged', async () => {
    const root = await tempProject({
      'manifest.yaml': [
        server,
        'tools:',
        '  - name: t',
        '    inputSchema:',
        '      type: object',
        '      properties:',
        "        a: { type: string, tsType: 'string; export const pwn = 1' }",
        "        b: { type: string, pattern: '^(\\w+\\s?)*$' }",
        '        c: { type: integer, maximun: 3 }',
        '',
      ].join('\n'),
    });
    const { model, warnings } = await loadManifest(path.join(root, 'manifest.yaml'));
    expect(model.tools[0]!.inputSchema.properties).toEqual({
      a: { type: 'string' },
      b: { type: 'string', pattern: '^(\\w+\\s?)*$' },
      c: { type: 'integer', maximun: 3 },
    });
    expect(warnings.map(brief)).toEqual([
      "8:28 /tools/0/inputSchema/properties/a/tsType 'tsType' ignored: schemas are data, never code",
      "9:37 /tools/0/inputSchema/properties/b/pattern pattern '^(\\w+\\s?)*$' may take exponential time on some inputs: the group ending at character 9 repeats a part that repeats itself",
      "10:29 /tools/0/inputSchema/properties/c/maximun inputSchema: unknown keyword 'maximun' is ignored",
    ]);
    expect(warnings[2]!.hint).toBe("did you mean 'maximum'?");
  });

  test("ajv-formats' own keywords are unknown, as in the generated validators, which ignore them", async () => {
    const root = await tempProject({
      'manifest.yaml': `${server}tools:\n  - name: t\n    inputSchema: { type: object, properties: { d: { type: string, format: date, formatMinimum: '2020-01-01' } } }\n`,
    });
    const { warnings } = await loadManifest(path.join(root, 'manifest.yaml'));
    expect(warnings.map(brief)).toEqual([
      "4:81 /tools/0/inputSchema/properties/d/formatMinimum inputSchema: unknown keyword 'formatMinimum' is ignored",
    ]);
  });

  test('tsEnumNames in a shared definition is stripped from every schema that uses it', async () => {
    const root = await tempProject({
      'manifest.yaml': `${server}tools:\n  - name: t\n    inputSchema: { type: object, properties: { e: { $ref: '#/$defs/E' } } }\n$defs:\n  E: { enum: [1, 2], tsEnumNames: [One, Two] }\n`,
    });
    const { model, warnings } = await loadManifest(path.join(root, 'manifest.yaml'));
    expect(model.tools[0]!.inputSchema.$defs).toEqual({ E: { enum: [1, 2] } });
    expect(warnings.map((w) => w.pointer)).toEqual(['/$defs/E/tsEnumNames']);
  });
});

describe('catastrophicPattern', () => {
  test.each([
    ['(a+)+', true],
    ['(a*)*b', true],
    ['^(\\w+\\s?)*$', true],
    ['((a|b)+)*', true],
    ['((ab)+c)+', false],
    ['(a+b)+', false],
    ['(?:x*)+', true],
    ['(?=a+)+', false],
    ['(x{2,})+', true],
    ['(a+)', false],
    ['(a|b)+', false],
    ['[(a+)]+', false],
    ['\\(a+\\)+', false],
    ['^[a-z]+(-[a-z]+)*$', false],
    ['(a{1,3})+', false],
  ])('%s → %s', (pattern, risky) => {
    expect(catastrophicPattern(pattern) !== undefined).toBe(risky);
  });
});

describe('tool names outside the recommended characters', () => {
  test('résumé and a/b are served with a warning each; a name with a space or a control character is an error', async () => {
    const root = await tempProject({
      'manifest.yaml': `${server}tools:\n  - name: résumé\n    inputSchema: { type: object }\n  - name: a/b\n    inputSchema: { type: object }\n  - name: fine.name-1\n    inputSchema: { type: object }\n`,
    });
    const { model, warnings } = await loadManifest(path.join(root, 'manifest.yaml'), { displayPath: 'manifest.yaml' });
    expect(model.tools.map((t) => [t.name, t.ids.camel])).toEqual([
      ['résumé', 'resume'],
      ['a/b', 'aB'],
      ['fine.name-1', 'fineName1'],
    ]);
    expect(warnings.map((w) => `${w.line}:${w.column} ${w.pointer} ${w.message}`)).toEqual([
      '3:11 /tools/0/name tool name "résumé" uses characters outside A–Z a–z 0–9 _ . -, which the specification recommends',
      '5:11 /tools/1/name tool name "a/b" uses characters outside A–Z a–z 0–9 _ . -, which the specification recommends',
    ]);
    for (const bad of ['"two words"', '"tab\\there"', '"bell\\u0007"']) {
      const broken = await tempProject({ 'manifest.yaml': `${server}tools:\n  - name: ${bad}\n    inputSchema: { type: object }\n` });
      expect((await problemsOf(path.join(broken, 'manifest.yaml'), { displayPath: 'manifest.yaml' })).map(brief)).toEqual([
        expect.stringMatching(/^3:11 \/tools\/0\/name .* is not a valid tool name$/),
      ]);
    }
  });
});
