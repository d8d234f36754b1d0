/**
 * The generated project's bundled build: `generated/bundle.mjs`, the esbuild recipe behind
 * `npm run bundle`. mcp-gen owns it (rewritten on every run) so the recipe follows the runtime.
 */
import type { PlannedFile } from '../../write/planned-file.js';

/** What `npm run bundle` builds with (kept equal to mcp-gen's own devDependency by a test). */
export const BUNDLE_DEPENDENCIES = { esbuild: '0.28.2' } as const;

/** Where the bundled server is written, relative to the project. */
export const BUNDLE_ENTRY = 'dist/server.mjs';

/**
 * The recipe. Two shapes, both ES modules that import nothing but `node:*` (and `redis` only when
 * `--redis` asks for it):
 * - the default: `dist/server.mjs` and `dist/chunks/start.mjs` hold everything a start needs
 *   (runtime, server, handlers, initialize's validator: two modules, each costing a start more
 *   than its bytes); what only some requests need (the other request validators, each tool's, the
 *   2026-07-28 ones, the HTTP transport, auth) sits beside them in `dist/chunks/`, loaded on first
 *   use as the unbundled build loads those modules. A server of 1,000 tools starts as fast as a
 *   small one.
 * - `--single-file`: one file with all of it. Simplest to ship; its start grows with the tools'
 *   validators, which V8 must still scan even though they run only on a tool's first call.
 */
const SCRIPT = `// Bundles the server with esbuild: npm run bundle [-- --single-file]
//
// Writes dist/server.mjs (run it with \`node dist/server.mjs\`, flags as for build/main.js) and, unless
// --single-file, the rest of what a start loads in dist/chunks/start.mjs and what only some requests
// need in the other chunks there, loaded on first use. When mcpb/manifest.json exists (mcp-gen
// server --mcpb), the same files are copied into mcpb/server/ for \`mcpb pack\`.
import { build } from 'esbuild';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const singleFile = process.argv.includes('--single-file');

// In one ES module file esbuild turns every \`import … from 'node:x'\` into an import at the top, so
// a stdio start would load node:http and node:crypto, which only the HTTP transport and auth use.
// Each builtin is required instead, when the module that imports it first runs.
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'lazy-builtin' }));
    esbuild.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: \`module.exports = __nodeRequire(\${JSON.stringify(args.path)});\`,
      loader: 'js',
    }));
  },
};

// Every build below: fewer bytes for V8 to scan at start; each file's .map maps stack traces back
// (node --enable-source-maps dist/server.mjs).
const OUTPUT = { bundle: true, platform: 'node', format: 'esm', target: 'node20', minify: true, sourcemap: 'linked', logLevel: 'warning' };

// esbuild puts the code dist/server.mjs shares with chunks it loads later (the HTTP transport, auth,
// tracing) in shared chunks, one per set of files using it: a start loaded five modules, and each
// module costs a start more than its bytes. The chunks a start loads are merged into one,
// dist/chunks/start.mjs, which exports what chunk n exported as name under 'c<n>$<name>'; every file
// that imported them is bundled again to import that instead (its source map still maps back).
async function mergeStartChunks(outputs) {
  const start = [];
  const visit = (file) => {
    for (const { path: target, kind } of outputs[file].imports) {
      if (kind !== 'import-statement' || start.includes(target) || !(target in outputs)) continue;
      start.push(target);
      visit(target);
    }
  };
  visit('dist/server.mjs');
  if (start.length < 2) return;
  const merged = 'dist/chunks/start.mjs';
  const reexport = (index, renamed, from) => {
    const names = outputs[start[index]].exports.map((name) => (renamed ? name + ' as c' + index + '$' + name : 'c' + index + '$' + name + ' as ' + name));
    return 'export { ' + names.join(', ') + ' } from ' + JSON.stringify(from) + ';\\n';
  };
  const facade = start.map((chunk, index) => reexport(index, true, './' + path.basename(chunk))).join('');
  await build({ ...OUTPUT, stdin: { contents: facade, resolveDir: 'dist/chunks', sourcefile: 'start-chunks.mjs' }, outfile: merged, external: ['node:*'] });
  const importers = Object.keys(outputs).filter(
    (file) => file.endsWith('.mjs') && !start.includes(file) && outputs[file].imports.some(({ path: target }) => start.includes(target)),
  );
  for (const file of importers) {
    const toMerged = path.relative(path.dirname(file), merged).split(path.sep).join('/');
    const redirect = {
      name: 'start-chunk',
      setup(esbuild) {
        esbuild.onResolve({ filter: /.*/ }, (args) => {
          if (args.kind === 'entry-point') return undefined;
          const index = args.namespace === 'file' ? start.indexOf(path.join(path.dirname(file), args.path).split(path.sep).join('/')) : -1;
          return index === -1 ? { path: args.path, external: true } : { path: String(index), namespace: 'start-chunk' };
        });
        esbuild.onLoad({ filter: /.*/, namespace: 'start-chunk' }, (args) => ({
          contents: reexport(Number(args.path), false, toMerged.startsWith('.') ? toMerged : './' + toMerged),
          loader: 'js',
        }));
      },
    };
    await build({ ...OUTPUT, entryPoints: [file], outfile: file, allowOverwrite: true, plugins: [redirect] });
  }
  for (const chunk of start) {
    rmSync(chunk);
    rmSync(chunk + '.map', { force: true });
  }
}

rmSync('dist', { recursive: true, force: true });
const { metafile } = await build({
  ...OUTPUT,
  entryPoints: { server: 'main.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  ...(singleFile
    ? {
        plugins: [lazyBuiltins],
        banner: { js: "import { createRequire as __createRequire } from 'node:module';\\nconst __nodeRequire = __createRequire(import.meta.url);" },
      }
    : { splitting: true, chunkNames: 'chunks/[name]-[hash]', metafile: true }),
});
if (!singleFile) await mergeStartChunks(metafile.outputs);

if (existsSync('mcpb/manifest.json')) {
  rmSync('mcpb/server', { recursive: true, force: true });
  cpSync('dist', 'mcpb/server', { recursive: true, filter: (source) => !source.endsWith('.map') });
  // An icon the manifest gave inline (a PNG data: URI) goes into the bundle as the file it names.
  const icon = JSON.parse(readFileSync('mcpb/manifest.json', 'utf8'))._meta?.['dev.mcp-gen']?.icon;
  if (typeof icon === 'string') writeFileSync('mcpb/icon.png', Buffer.from(icon.slice(icon.indexOf(',') + 1), 'base64'));
}
`;

/** `generated/bundle.mjs`. */
export function bundleFile(): PlannedFile {
  return { path: 'generated/bundle.mjs', owner: 'generated', format: 'none', content: SCRIPT };
}
