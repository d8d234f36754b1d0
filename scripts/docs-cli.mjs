#!/usr/bin/env node
// Writes the CLI reference, docs/cli/<command>.md and docs/cli/README.md, from the command table
// (src/cli/commands.ts) through the compiled dist/cli/reference.js; pages of commands that are gone
// are removed. test/cli/reference.test.ts fails when the committed pages differ.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { cliReferencePages } = await import(path.join(root, 'dist', 'cli', 'reference.js'));
const folder = path.join(root, 'docs', 'cli');
mkdirSync(folder, { recursive: true });
const pages = cliReferencePages();
for (const name of readdirSync(folder)) {
  if (name.endsWith('.md') && !pages.has(name)) rmSync(path.join(folder, name));
}
for (const [name, text] of pages) writeFileSync(path.join(folder, name), text);
console.log(`docs/cli: ${pages.size} pages written`);
