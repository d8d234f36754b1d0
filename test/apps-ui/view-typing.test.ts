/**
 * The view bindings (`mcp-gen client --view`) keep a page honest at compile time: the good page
 * type-checks with no error, and each wrong use (bad arguments, a tool that is not there, a result
 * field read as the wrong type or from the wrong tool, an unknown display mode) is exactly one
 * error, on its line. Checked under create-vite's tsconfig (DOM) and under the apps matrix's
 * strictest settings without the DOM library (the bindings need no DOM types).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { CREATE_VITE_TSCONFIG } from '../support/create-vite.js';
import { repoRoot, tempDir } from '../server/support.js';
import { BAD, GOOD, MISTAKES } from './view-pages.js';

const project = tempDir('apps-ui-typing');
const manifest = join(repoRoot, 'test/fixtures/apps-ui/weather-views/manifest.yaml');

const VITE: ts.CompilerOptions = { ...ts.convertCompilerOptionsFromJson({ ...CREATE_VITE_TSCONFIG.compilerOptions, types: [] }, project).options };
/** The apps matrix's strictest common settings, and no DOM: the bindings describe what they touch. */
const STRICTEST: ts.CompilerOptions = {
  ...ts.convertCompilerOptionsFromJson(
    { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022'], types: [], strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noPropertyAccessFromIndexSignature: true, noImplicitOverride: true, noUnusedLocals: true, noUnusedParameters: true, verbatimModuleSyntax: true, erasableSyntaxOnly: true, noEmit: true, skipLibCheck: false },
    project,
  ).options,
};

function check(file: string, options: ts.CompilerOptions): string[] {
  const program = ts.createProgram([join(project, 'src', file)], options);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName.slice(project.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '';
    return `${where} TS${d.code}`;
  });
}

beforeAll(async () => {
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
  const err: string[] = [];
  const code = await main(['client', manifest, '--view', 'ui://weather/forecast', '-o', join(project, 'src', 'view')], { out: () => {}, err: (l) => err.push(l) });
  expect(err.join('\n')).toBe('');
  expect(code).toBe(0);
  writeFileSync(join(project, 'src', 'good.ts'), GOOD);
  writeFileSync(join(project, 'src', 'bad.ts'), BAD);
}, 120_000);

describe.each([
  ['create-vite', VITE],
  ['the strictest settings without DOM', STRICTEST],
])('view bindings under %s', (_name, options) => {
  it('the good page type-checks', () => {
    expect(check('good.ts', options)).toEqual([]);
  });

  it('each mistake is one error on its line', () => {
    const errors = check('bad.ts', options);
    expect(errors.map((e) => e.split(' ')[0])).toEqual(MISTAKES.map((_, index) => `src/bad.ts:${5 + index}`));
  });
});

it('an unknown view is a clear error, exit 2', async () => {
  const err: string[] = [];
  const code = await main(['client', manifest, '--view', 'ui://weather/nope', '-o', join(project, 'nope')], { out: () => {}, err: (l) => err.push(l) });
  expect(code).toBe(2);
  expect(err.join('\n')).toMatch(/the server has no view "ui:\/\/weather\/nope" — its views: ui:\/\/weather\/forecast/);
});
