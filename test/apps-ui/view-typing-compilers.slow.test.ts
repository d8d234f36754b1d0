/**
 * The view bindings under the apps matrix's own settings and compilers (slow tier: installs
 * TypeScript 7.0 with `npm ci --prefix test/compilers`, as test/types/user-tsconfig.test.ts does):
 * the `tsc --init` of TypeScript 5.9 and of 7.0 as each writes it, and under 7.0 the matrix's
 * strictest common set, its `bundler` resolution and create-vite's tsconfig. view-typing.test.ts
 * runs the same pages through the project's own compiler in the fast tier.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { CREATE_VITE_TSCONFIG } from '../support/create-vite.js';
import { repoRoot, tempDir } from '../server/support.js';
import { BAD, GOOD, MISTAKES } from './view-pages.js';

const run = promisify(execFile);
const COMPILERS = join(repoRoot, 'test', 'compilers');
const TSC: Record<string, string[]> = {
  '5.9': [process.execPath, join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc')],
  '7.0': [join(COMPILERS, 'node_modules', 'typescript-7', 'bin', 'tsc')],
};
const project = tempDir('apps-ui-typing-compilers');

/** The apps matrix's settings (test/apps/setups.ts), for a page: no Node types. */
const STRICTEST = {
  strict: true,
  target: 'es2022',
  module: 'nodenext',
  types: [],
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noImplicitReturns: true,
  noPropertyAccessFromIndexSignature: true,
  noFallthroughCasesInSwitch: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  allowUnreachableCode: false,
  useUnknownInCatchVariables: true,
  noEmit: true,
};
const BUNDLER = { strict: true, types: [], target: 'es2022', module: 'preserve', moduleResolution: 'bundler', noEmit: true, verbatimModuleSyntax: true };
const VITE = { ...CREATE_VITE_TSCONFIG.compilerOptions, types: [] };

/** tsc's errors as `file:line TScode`; empty when it found none. */
async function tsc(version: string, config: string): Promise<string[]> {
  const [command, ...prefix] = TSC[version] as string[];
  try {
    await run(command as string, [...prefix, '-p', config, '--noEmit', '--pretty', 'false'], { cwd: project, maxBuffer: 16 * 1024 * 1024 });
    return [];
  } catch (error) {
    const output = `${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}`;
    const errors = [...output.matchAll(/^(\S+?)\((\d+),\d+\): error (TS\d+)/gm)].map((m) => `${m[1]}:${m[2]} ${m[3]}`);
    return errors.length > 0 ? errors : [output || (error as Error).message];
  }
}

/** One tsconfig per page and setting: the setting's own file (or options) with just that page. */
function config(name: string, page: 'good' | 'bad', base: { extends: string } | { compilerOptions: object }): string {
  const file = `tsconfig.${name}.${page}.json`;
  writeFileSync(join(project, file), JSON.stringify({ ...base, files: [`src/${page}.ts`] }));
  return file;
}

const SETTINGS: { name: string; version: string; base: { extends: string } | { compilerOptions: object } }[] = [
  { name: 'tsc --init of TypeScript 5.9', version: '5.9', base: { extends: './init-5.9/tsconfig.json' } },
  { name: 'tsc --init of TypeScript 7.0', version: '7.0', base: { extends: './init-7.0/tsconfig.json' } },
  { name: 'the strictest common set, TypeScript 7.0', version: '7.0', base: { compilerOptions: STRICTEST } },
  { name: '`bundler` resolution, TypeScript 7.0', version: '7.0', base: { compilerOptions: BUNDLER } },
  { name: "create-vite's tsconfig, TypeScript 7.0", version: '7.0', base: { compilerOptions: VITE } },
];

beforeAll(async () => {
  if (!existsSync(join(COMPILERS, 'node_modules', 'typescript-7'))) execFileSync('npm', ['ci', '--prefix', COMPILERS, '--no-audit', '--no-fund'], { stdio: 'pipe' });
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
  const err: string[] = [];
  const code = await main(['client', join(repoRoot, 'test/fixtures/apps-ui/weather-views/manifest.yaml'), '--view', 'ui://weather/forecast', '-o', join(project, 'src', 'view')], { out: () => {}, err: (l) => err.push(l) });
  expect(code, err.join('\n')).toBe(0);
  writeFileSync(join(project, 'src', 'good.ts'), GOOD);
  writeFileSync(join(project, 'src', 'bad.ts'), BAD);
  for (const version of ['5.9', '7.0']) {
    // That release's own `tsc --init`, as it writes it.
    mkdirSync(join(project, `init-${version}`));
    const [command, ...prefix] = TSC[version] as string[];
    execFileSync(command as string, [...prefix, '--init'], { cwd: join(project, `init-${version}`), stdio: 'pipe' });
  }
}, 300_000);

describe.each(SETTINGS)('view bindings under $name', ({ name, version, base }) => {
  it('the good page type-checks', async () => {
    expect(await tsc(version, config(name.replace(/\W+/g, '-'), 'good', base))).toEqual([]);
  });

  it('each mistake is one error on its line', async () => {
    const errors = await tsc(version, config(name.replace(/\W+/g, '-'), 'bad', base));
    expect(errors.map((e) => e.split(' ')[0])).toEqual(MISTAKES.map((_, index) => `src/bad.ts:${5 + index}`));
  });
});
