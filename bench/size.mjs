#!/usr/bin/env node
// Size of what mcp-gen puts into a generated server: the bundled runtime and the precompiled
// validators, as generated (TypeScript + standalone JS) and as shipped after tsc (JS only), raw and
// gzipped. Defaults to the weather example.
//
//   node bench/size.mjs [server folder, default examples/weather/server]
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from './lib/paths.mjs';
import { compileServer, generateOutputs } from './lib/servers.mjs';

const folder = path.resolve(
  repoRoot,
  process.argv[2] ?? path.join('examples', 'weather', 'server'),
);
// The example and bench outputs are git-ignored: generate them first (another folder is taken as it is).
generateOutputs();
const generated = path.join(folder, 'generated');
if (!existsSync(generated)) throw new Error(`${folder} has no generated/ folder`);

// Compiled, so the shipped JavaScript can be measured too.
compileServer(folder);

function files(dir, keep) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && keep(entry.name))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
}

function measure(paths) {
  const contents = paths.map((file) => readFileSync(file));
  const bytes = contents.reduce((sum, buffer) => sum + buffer.length, 0);
  return {
    files: paths.length,
    bytes,
    gzipBytes: gzipSync(Buffer.concat(contents), { level: 9 }).length,
  };
}

const isValidator = (name) => /validators\.(js|d\.ts)$/.test(name);
const isCode = (name) => /\.(ts|js)$/.test(name);
const isJs = (name) => name.endsWith('.js');
const built = path.join(folder, 'build', 'generated');

const rows = [
  [
    'runtime code, generated TypeScript',
    measure(files(path.join(generated, 'runtime'), (n) => isCode(n) && !isValidator(n))),
  ],
  [
    'runtime envelope validators (request + result modules, .js + .d.ts)',
    measure(files(path.join(generated, 'runtime'), isValidator)),
  ],
  [
    'tool validators, generated (validators.js + .d.ts)',
    measure(files(generated, (n) => isValidator(n)).filter((f) => path.dirname(f) === generated)),
  ],
  ['everything under generated/', measure(files(generated, () => true))],
  ['runtime, shipped JS after tsc', measure(files(path.join(built, 'runtime'), isJs))],
  ['runtime + tool validators, shipped JS after tsc', measure(files(built, isJs))],
];

const lines = [
  `Generated output of ${path.relative(repoRoot, folder)}:`,
  '',
  '| part | files | bytes | gzip -9 bytes |',
  '| --- | --- | --- | --- |',
];
for (const [label, size] of rows)
  lines.push(`| ${label} | ${size.files} | ${size.bytes} | ${size.gzipBytes} |`);
process.stdout.write(lines.join('\n') + '\n');
