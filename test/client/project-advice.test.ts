/**
 * What `mcp-gen client` says about the project around its output folder (src/pipeline/client-project.ts),
 * on small real project folders: the tsconfig read by TypeScript itself (an `extends` chain), Node's
 * types found in a node_modules above or in package.json, a `--browser` or `--package` client left
 * alone. Which runtime files name Node's types. The real tools on the user's projects (npm init,
 * tsc --init, tsc, deno check) are user-project.slow.test.ts.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../server/support.js';
import { cli, repoRoot } from './support.js';

const root = tempDir('project-advice');
const MANIFEST = join(repoRoot, 'examples', 'weather', 'manifest.yaml');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A project folder with these files (JSON values written as JSON). */
function project(name: string, files: Record<string, unknown>): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, value] of Object.entries(files)) writeFileSync(join(dir, file), typeof value === 'string' ? value : JSON.stringify(value));
  return dir;
}

async function notesFor(dir: string, ...flags: string[]): Promise<string[]> {
  const run = await cli(['client', MANIFEST, '-o', join(dir, 'src', 'mcp'), '--no-version-banner', ...flags]);
  expect(run.code, run.err).toBe(0);
  return run.err.split('\n').filter((line) => line.startsWith('note:'));
}

const shown = (path: string): string => relative(process.cwd(), path);
const NODENEXT_VERBATIM = { compilerOptions: { module: 'nodenext', verbatimModuleSyntax: true } };

describe('mcp-gen client, in a project', () => {
  it('a package with no "type" and a tsconfig extending one with nodenext + verbatimModuleSyntax: the two commands', async () => {
    const dir = project('no-type', { 'package.json': { name: 'app' }, 'tsconfig.base.json': NODENEXT_VERBATIM, 'tsconfig.json': '// the app\n{ "extends": "./tsconfig.base.json", }\n' });
    expect(await notesFor(dir)).toEqual([
      `note: ${shown(join(dir, 'package.json'))} has no "type" (CommonJS) and ${shown(join(dir, 'tsconfig.json'))} sets verbatimModuleSyntax, so tsc refuses the ESM client in ${shown(join(dir, 'src', 'mcp'))} (TS1295): run \`npm pkg set type=module\` in ${shown(dir)}`,
      `note: the client in ${shown(join(dir, 'src', 'mcp'))} imports node:* modules, whose types are not installed here (TS2688, TS2307): run \`npm install --save-dev @types/node\` in ${shown(dir)}`,
    ]);
  });

  it('nothing to say: an ES module package with @types/node installed, or named in devDependencies', async () => {
    const installed = project('esm-installed', { 'package.json': { type: 'module' }, 'tsconfig.json': NODENEXT_VERBATIM });
    mkdirSync(join(installed, 'node_modules', '@types'), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules', '@types', 'node'), join(installed, 'node_modules', '@types', 'node'));
    expect(await notesFor(installed)).toEqual([]);
    const named = project('esm-named', { 'package.json': { type: 'module', devDependencies: { '@types/node': '^20' } } });
    expect(await notesFor(named)).toEqual([]);
  });

  it('a CommonJS package whose tsconfig has no verbatimModuleSyntax compiles the client as CommonJS: no note about it', async () => {
    const dir = project('commonjs', { 'package.json': { type: 'commonjs', devDependencies: { '@types/node': '^20' } }, 'tsconfig.json': { compilerOptions: { module: 'nodenext' } } });
    expect(await notesFor(dir)).toEqual([]);
  });

  it('a --browser client needs no @types/node, and a --package client brings its own project files', async () => {
    const dir = project('browser', { 'package.json': { type: 'commonjs' }, 'tsconfig.json': { compilerOptions: { module: 'esnext', moduleResolution: 'bundler', verbatimModuleSyntax: true } } });
    expect(await notesFor(dir, '--browser')).toEqual([]);
    const packaged = project('packaged', { 'package.json': { name: 'app' }, 'tsconfig.json': NODENEXT_VERBATIM });
    expect(await notesFor(packaged, '--package', 'weather-client')).toEqual([]);
  });

  it('Deno: a deno.json without package.json and a client importing .js gets the command with --import-extension ts', async () => {
    const dir = project('deno', { 'deno.json': {} });
    const notes = await notesFor(dir);
    expect(notes).toEqual([`note: ${shown(join(dir, 'deno.json'))} makes ${shown(join(dir, 'src', 'mcp'))} part of a Deno project, whose imports must name the .ts files: run \`mcp-gen client ${shown(MANIFEST)} -o ${shown(join(dir, 'src', 'mcp'))} --import-extension ts --no-version-banner\``]);
    expect(await notesFor(dir, '--import-extension', 'ts')).toEqual([]);
  });
});

describe("Node's types, named by the runtime files", () => {
  const referencing = (dir: string): string[] => {
    const found: string[] = [];
    const walk = (sub: string): void => {
      for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
        const path = join(sub, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts') && readFileSync(join(dir, path), 'utf8').includes('/// <reference types="node" />')) found.push(path);
      }
    };
    walk('');
    return found;
  };

  it('the Node client keeps the reference (tsc --init has "types": []); --browser and --import-extension ts clients have none', async () => {
    const dir = project('references', {});
    await notesFor(dir);
    expect(referencing(join(dir, 'src', 'mcp'))).toContain(join('runtime', 'client', 'stdio.ts'));
    await notesFor(dir, '--import-extension', 'ts');
    expect(referencing(join(dir, 'src', 'mcp'))).toEqual([]);
    await notesFor(dir, '--browser');
    expect(referencing(join(dir, 'src', 'mcp'))).toEqual([]);
  });
});
