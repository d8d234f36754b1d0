/**
 * The app setups of the apps matrix, as data: how a user's project around the generated client is
 * laid out (its files, made here or by the tool's own `init`), and the command of each column:
 * typecheck, build, run. A column a setup does not have is n/a with the reason. Commands name the
 * tools of test/apps/package.json by key (their command lines are in harness.ts); the app's entry
 * is always src/main.ts.
 */
import { CREATE_VITE_TSCONFIG } from '../support/create-vite.js';

export type Column = 'typecheck' | 'build' | 'run';
export const COLUMNS: readonly Column[] = ['typecheck', 'build', 'run'];

/** A command: the tool's key, then its arguments; or why the setup has no such step. */
export type Step = { tool: ToolKey; args: string[] } | { notApplicable: string };

export type ToolKey = 'tsc-5.9' | 'tsc-7.0' | 'esbuild' | 'vite' | 'webpack' | 'tsx' | 'node' | 'node-22' | 'bun' | 'deno';

export interface Setup {
  id: string;
  /** As the table shows it. */
  label: string;
  /** `node`: stdio and HTTP, both eras; `browser`: HTTP only, both eras, the URL from globalThis. */
  app: 'node' | 'browser';
  /** How src/main.ts names the copied client (`.ts` where the runtime needs real file names). */
  copiedSpecifier: './mcp/client.js' | './mcp/client.ts';
  /** Options of `mcp-gen client` for the copied client, as docs/client.md tells users of this setup. */
  clientOptions?: string[];
  /** The app's files besides src/main.ts (package.json always; the harness adds the package dependency). */
  files: Record<string, string>;
  /** Packages the app installs itself (from the npm cache), beside the client package. */
  install?: string[];
  /** A command run once in the fresh app before its files are written over it (`tsc --init`). */
  init?: { tool: ToolKey; args: string[]; edit: (file: string, text: string) => string; file: string };
  steps: Record<Column, Step>;
}

/** Relative imports that name the `.ts` files, for runtimes that run the sources without resolving `.js` to `.ts`. */
const TS_EXTENSIONS = ['--import-extension', 'ts'];
const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
const esm = json({ name: 'app', private: true, type: 'module' });
const runBuilt = (file: string): Step => ({ tool: 'node', args: [file] });
const noBuild = (why: string): Step => ({ notApplicable: why });

/** The compiler options every hand-written tsconfig below starts from: Node types, strict, src → dist. */
const nodeBase = { types: ['node'], strict: true, skipLibCheck: true, rootDir: 'src', outDir: 'dist' };

/** `tsc --init` of TypeScript 5.9, with the three edits its own comments suggest for a Node app. */
function editInitConfig(_file: string, text: string): string {
  return text
    .replace('// "rootDir": "./src",', '"rootDir": "./src",')
    .replace('// "outDir": "./dist",', '"outDir": "./dist",')
    .replace('"types": [],', '"types": ["node"],');
}

/** A runtime that runs the TypeScript sources as they are, without type-checking them (tsx, Bun). */
function uncheckedRunner(id: string, label: string, tool: ToolKey): Setup {
  return {
    id,
    label,
    app: 'node',
    copiedSpecifier: './mcp/client.js',
    files: { 'package.json': esm },
    steps: {
      typecheck: { notApplicable: `${label} runs TypeScript without checking it (the tsc rows check the same code)` },
      build: noBuild(`${label} runs the sources`),
      run: { tool, args: ['src/main.ts'] },
    },
  };
}

export const SETUPS: readonly Setup[] = [
  {
    id: 'tsc-init',
    label: '`tsc --init` (TS 5.9), tsc, node',
    app: 'node',
    copiedSpecifier: './mcp/client.js',
    files: { 'package.json': esm },
    init: { tool: 'tsc-5.9', args: ['--init'], file: 'tsconfig.json', edit: editInitConfig },
    steps: { typecheck: { tool: 'tsc-5.9', args: ['--noEmit'] }, build: { tool: 'tsc-5.9', args: ['--noCheck'] }, run: runBuilt('dist/main.js') },
  },
  {
    id: 'strictest',
    label: 'strictest common set (TS 7.0), tsc, node',
    app: 'node',
    copiedSpecifier: './mcp/client.js',
    files: {
      'package.json': esm,
      'tsconfig.json': json({
        compilerOptions: {
          ...nodeBase,
          target: 'es2022',
          module: 'nodenext',
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
        },
        include: ['src'],
      }),
    },
    steps: { typecheck: { tool: 'tsc-7.0', args: ['--noEmit'] }, build: { tool: 'tsc-7.0', args: ['--noCheck'] }, run: runBuilt('dist/main.js') },
  },
  {
    id: 'bundler-esbuild',
    label: '`bundler` resolution (TS 7.0), esbuild bundle',
    app: 'node',
    copiedSpecifier: './mcp/client.js',
    files: {
      'package.json': esm,
      'tsconfig.json': json({ compilerOptions: { ...nodeBase, target: 'es2022', module: 'preserve', moduleResolution: 'bundler', noEmit: true, verbatimModuleSyntax: true }, include: ['src'] }),
    },
    steps: {
      typecheck: { tool: 'tsc-7.0', args: [] },
      build: { tool: 'esbuild', args: ['src/main.ts', '--bundle', '--platform=node', '--format=esm', '--outfile=dist/main.mjs'] },
      run: runBuilt('dist/main.mjs'),
    },
  },
  {
    id: 'commonjs',
    label: 'CommonJS app (TS 7.0), tsc, node',
    app: 'node',
    copiedSpecifier: './mcp/client.js',
    files: {
      'package.json': json({ name: 'app', private: true, type: 'commonjs' }),
      'tsconfig.json': json({ compilerOptions: { ...nodeBase, target: 'es2022', module: 'nodenext' }, include: ['src'] }),
    },
    steps: { typecheck: { tool: 'tsc-7.0', args: ['--noEmit'] }, build: { tool: 'tsc-7.0', args: ['--noCheck'] }, run: runBuilt('dist/main.js') },
  },
  uncheckedRunner('tsx', 'tsx', 'tsx'),
  {
    id: 'vite',
    label: 'Vite vanilla-ts page (TS 7.0, Vite 8), bundle run by Node',
    app: 'browser',
    copiedSpecifier: './mcp/client.js',
    // docs/client.md's way for a web page (the browser helper's option); the package needs nothing.
    clientOptions: ['--browser'],
    files: {
      'package.json': esm,
      'index.html': '<!doctype html>\n<html lang="en">\n  <body>\n    <script type="module" src="/src/main.ts"></script>\n  </body>\n</html>\n',
      'tsconfig.json': json(CREATE_VITE_TSCONFIG),
      // The bundle's own path without a browser (the Chromium run is test/browser's): Node 22 loads
      // the built page script with the URL set, and waits for the app's promise.
      'run-bundle.mjs': [
        "import { readdirSync } from 'node:fs';",
        "const script = readdirSync('dist/assets').find((f) => f.endsWith('.js'));",
        '// The page as far as Vite\'s module-preload polyfill and the app touch it.',
        'globalThis.document = { createElement: () => ({ relList: { supports: () => true } }), body: {} };',
        'globalThis.APP_SERVER_URL = process.env.APP_SERVER_URL;',
        'await import(`./dist/assets/${script}`);',
        'console.log(await globalThis.APP_DONE);',
        '',
      ].join('\n'),
    },
    steps: { typecheck: { tool: 'tsc-7.0', args: [] }, build: { tool: 'vite', args: ['build', '--logLevel', 'warn'] }, run: { tool: 'node-22', args: ['run-bundle.mjs'] } },
  },
  {
    id: 'webpack',
    label: 'webpack 5 for Node (TS 5.9, ts-loader)',
    app: 'node',
    copiedSpecifier: './mcp/client.js',
    files: {
      'package.json': esm,
      'tsconfig.json': json({ compilerOptions: { ...nodeBase, target: 'es2022', module: 'nodenext' }, include: ['src'] }),
      'webpack.config.cjs': [
        "const { join } = require('node:path');",
        'module.exports = {',
        "  mode: 'production',",
        "  target: 'node20',",
        "  entry: './src/main.ts',",
        "  output: { path: join(__dirname, 'dist'), filename: 'main.cjs' },",
        "  resolve: { extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } },",
        "  module: { rules: [{ test: /\\.ts$/, loader: require.resolve('ts-loader'), options: { transpileOnly: true } }] },",
        '  optimization: { minimize: false },',
        '};',
        '',
      ].join('\n'),
    },
    steps: { typecheck: { tool: 'tsc-5.9', args: ['--noEmit'] }, build: { tool: 'webpack', args: ['--config', 'webpack.config.cjs'] }, run: runBuilt('dist/main.cjs') },
  },
  {
    id: 'node-strip-types',
    label: "Node 22's type stripping (TS 5.9 check)",
    app: 'node',
    copiedSpecifier: './mcp/client.ts',
    clientOptions: TS_EXTENSIONS,
    files: {
      'package.json': esm,
      'tsconfig.json': json({
        compilerOptions: { ...nodeBase, target: 'esnext', module: 'nodenext', noEmit: true, allowImportingTsExtensions: true, erasableSyntaxOnly: true, verbatimModuleSyntax: true },
        include: ['src'],
      }),
    },
    steps: {
      typecheck: { tool: 'tsc-5.9', args: [] },
      build: noBuild('Node runs the sources, stripping their types'),
      run: { tool: 'node-22', args: ['--experimental-strip-types', '--no-warnings', 'src/main.ts'] },
    },
  },
  uncheckedRunner('bun', 'Bun', 'bun'),
  {
    id: 'deno',
    label: 'Deno (deno check, deno run)',
    app: 'node',
    copiedSpecifier: './mcp/client.ts',
    clientOptions: TS_EXTENSIONS,
    files: { 'package.json': esm },
    // With a package.json Deno reads node_modules, where `deno check` wants Node's types for node:*.
    install: ['@types/node@20.19.43'],
    steps: {
      typecheck: { tool: 'deno', args: ['check', 'src/main.ts'] },
      build: noBuild('Deno runs the sources'),
      run: { tool: 'deno', args: ['run', '--allow-all', 'src/main.ts'] },
    },
  },
];
