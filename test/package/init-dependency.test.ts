/**
 * The `mcp-gen` line that `mcp-gen init` writes (src/init/mcp-gen-dependency.ts), for each way
 * mcp-gen can be installed. Real folders: the function reads the installing project's package.json.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { mcpGenDependency } from '../../src/init/mcp-gen-dependency.js';

/** A project folder whose package.json has `fields`, with mcp-gen installed in its node_modules. */
function project(fields: Record<string, unknown> | undefined): { dir: string; packageRoot: string } {
  const dir = mkdtempSync(join(tmpdir(), 'init-dependency-'));
  const packageRoot = join(dir, 'node_modules', 'mcp-gen');
  mkdirSync(packageRoot, { recursive: true });
  if (fields !== undefined) writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', ...fields }));
  return { dir, packageRoot };
}

test('a checkout of the repository is named by its folder', () => {
  expect(mcpGenDependency('/home/me/mcp-gen', '0.1.0')).toBe('file:/home/me/mcp-gen');
});

test('a package installed from a tarball is asked for by the same tarball, its path made absolute', () => {
  const { dir, packageRoot } = project({ devDependencies: { 'mcp-gen': 'file:../mcp-gen-0.1.0.tgz' } });
  expect(mcpGenDependency(packageRoot, '0.1.0')).toBe(`file:${join(dir, '..', 'mcp-gen-0.1.0.tgz')}`);
  const absolute = project({ dependencies: { 'mcp-gen': 'file:/opt/mcp-gen-0.1.0.tgz' } });
  expect(mcpGenDependency(absolute.packageRoot, '0.1.0')).toBe('file:/opt/mcp-gen-0.1.0.tgz');
});

test('any other spec of the installing project is kept as it is written', () => {
  expect(mcpGenDependency(project({ devDependencies: { 'mcp-gen': '^0.3.1' } }).packageRoot, '0.3.2')).toBe('^0.3.1');
  expect(mcpGenDependency(project({ dependencies: { 'mcp-gen': 'github:me/mcp-gen#v1' } }).packageRoot, '0.1.0')).toBe('github:me/mcp-gen#v1');
});

test('an installed package whose project names no mcp-gen falls back to its version range', () => {
  expect(mcpGenDependency(project(undefined).packageRoot, '0.1.0')).toBe('^0.1.0');
  expect(mcpGenDependency(project({ dependencies: { other: '1.0.0' } }).packageRoot, '0.2.0')).toBe('^0.2.0');
});
