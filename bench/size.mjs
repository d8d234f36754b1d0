#!/usr/bin/env node
// Size of what mcp-gen puts into a generated server: the bundled runtime and the precompiled
// validators, as generated (TypeScript + standalone JS) and as shipped after tsc (JS only), raw and
// gzipped. Defaults to the weather example.
//
// It has no peer: each row prints its ratio to the same row of `--before <checkout>` (another
// checkout, e.g. a worktree of the previous commit after its `npm ci`, whose outputs this generates
// and compiles with its own CLI), and the shipped JavaScript its ratio to the floor: the hand-written
// server of bench/floor (server.mjs and the handlers it imports, no library).
//
//   node bench/size.mjs [server folder, default examples/weather/server] [--before <checkout>] [--out file.json]
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { repoRoot } from './lib/paths.mjs';
import { compileServer, generateOutputs } from './lib/servers.mjs';
import { machine, writeReport } from './lib/report.mjs';
import { printRatios, ratioRow } from './lib/ratios.mjs';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { before: { type: 'string' }, out: { type: 'string', default: path.join(repoRoot, 'bench', 'results', 'size.json') } },
});
const relativeFolder = path.relative(repoRoot, path.resolve(repoRoot, positionals[0] ?? path.join('examples', 'weather', 'server')));
const folder = path.join(repoRoot, relativeFolder);
const loadAverageAtStart = loadavg();
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

/** The rows of one server folder (generated and compiled). */
function sizes(folder) {
  const generated = path.join(folder, 'generated');
  const built = path.join(folder, 'build', 'generated');
  return [
    ['runtime code, generated TypeScript', measure(files(path.join(generated, 'runtime'), (n) => isCode(n) && !isValidator(n)))],
    ['runtime envelope validators (request + result modules, .js + .d.ts)', measure(files(path.join(generated, 'runtime'), isValidator))],
    ['tool validators, generated (validators.js + .d.ts)', measure(files(generated, (n) => isValidator(n)).filter((f) => path.dirname(f) === generated))],
    ['everything under generated/', measure(files(generated, () => true))],
    ['runtime, shipped JS after tsc', measure(files(path.join(built, 'runtime'), isJs))],
    ['runtime + tool validators, shipped JS after tsc', measure(files(built, isJs))],
  ];
}

const rows = sizes(folder);
let beforeRows;
if (flags.before !== undefined) {
  const checkout = path.resolve(flags.before);
  execFileSync(process.execPath, [path.join(checkout, 'bin', 'mcp-gen.js'), 'regenerate-self', '--examples', '--quiet'], { cwd: checkout, stdio: ['ignore', 'inherit', 'inherit'] });
  compileServer(path.join(checkout, relativeFolder));
  beforeRows = new Map(sizes(path.join(checkout, relativeFolder)));
}

const lines = [
  `Generated output of ${relativeFolder}:`,
  '',
  '| part | files | bytes | gzip -9 bytes |',
  '| --- | --- | --- | --- |',
];
for (const [label, size] of rows)
  lines.push(`| ${label} | ${size.files} | ${size.bytes} | ${size.gzipBytes} |`);
process.stdout.write(lines.join('\n') + '\n');

// One measurement each: a size does not vary from round to round.
const ratios = [];
const floor = measure([path.join(repoRoot, 'bench', 'floor', 'server.mjs'), path.join(repoRoot, 'bench', 'lib', 'handlers.mjs')]);
const shipped = new Map(rows).get('runtime + tool validators, shipped JS after tsc');
for (const key of ['bytes', 'gzipBytes']) {
  ratios.push(ratioRow({ metric: `${relativeFolder}: runtime + tool validators, shipped JS after tsc, ${key === 'bytes' ? 'raw' : 'gzip -9'}`, unit: 'bytes', reference: 'floor server (bench/floor)', ours: [shipped[key]], theirs: [floor[key]] }));
}
if (beforeRows !== undefined) {
  for (const [label, size] of rows) {
    const before = beforeRows.get(label);
    if (before.bytes === 0) continue;
    ratios.push(ratioRow({ metric: `${relativeFolder}: ${label}`, unit: 'bytes', reference: `${flags.before}`, ours: [size.bytes], theirs: [before.bytes] }));
  }
}
printRatios(ratios, `Ratios (one measurement each; the floor server${beforeRows ? ' and the --before checkout' : ''} as reference)`);
writeReport(flags.out, { date: new Date().toISOString(), machine: machine(), loadAverageAtStart, loadAverageAtEnd: loadavg(), folder: relativeFolder, before: flags.before ?? null, sizes: Object.fromEntries(rows), floor, ratios });
