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
 * - the default: `dist/server.mjs` holds everything a start needs (runtime, server, handlers, the
 *   request validators); what only some requests need (each tool's validators, the 2026-07-28
 *   validators, the HTTP transport, auth) sits beside it in `dist/chunks/`, loaded on first use as
 *   the unbundled build loads those modules. A server of 1,000 tools starts as fast as a small one.
 * - `--single-file`: one file with all of it. Simplest to ship; its start grows with the tools'
 *   validators, which V8 must still scan even though they run only on a tool's first call.
 */
const SCRIPT = `// Bundles the server with esbuild: npm run bundle [-- --single-file]
//
// Writes dist/server.mjs (run it with \`node dist/server.mjs\`, flags as for build/main.js) and, unless
// --single-file, the chunks it loads on first use in dist/chunks/. When mcpb/manifest.json exists
// (mcp-gen server --mcpb), the same files are copied into mcpb/server/ for \`mcpb pack\`.
import { build } from 'esbuild';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

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

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { server: 'main.ts' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Fewer bytes for V8 to scan at start; dist/server.mjs.map maps stack traces back
  // (node --enable-source-maps dist/server.mjs).
  minify: true,
  sourcemap: 'linked',
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  ...(singleFile
    ? {
        plugins: [lazyBuiltins],
        banner: { js: "import { createRequire as __createRequire } from 'node:module';\\nconst __nodeRequire = __createRequire(import.meta.url);" },
      }
    : { splitting: true, chunkNames: 'chunks/[name]-[hash]' }),
  logLevel: 'warning',
});

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
