#!/usr/bin/env node
// The files assembled from per-tool units (a server's types.ts and server.ts, a client's types.ts
// and client.ts), in-process, CPU ms: cold (empty unit cache) and warm (one tool changed, the
// cold run's cache). Needs `npm run build` and two manifests from make-manifest.mjs:
//   node bench/scale/make-manifest.mjs --out /tmp/m.json
//   node -e "import('./bench/scale/make-manifest.mjs').then((m) => require('fs').writeFileSync('/tmp/m2.json', m.manifestText({ changed: { 500: 1 } })))"
//   node bench/scale/emit-units.mjs /tmp/m.json /tmp/m2.json
// COLD_RUNS / WARM_RUNS (default 1 / 3) repeat the steps in-process; CACHE_OUT=file saves the cold
// run's cache and CACHE_IN=file starts from it, for a warm run in a fresh process.
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
const root = new URL('../../dist', import.meta.url).pathname;
const { loadManifest } = await import(`${root}/pipeline/manifest.js`);
const { typesFile, assembleTypes, FIXED_NAMES, promptArgumentTypes } = await import(`${root}/emit/types/types-file.js`);
const { serverFile } = await import(`${root}/emit/server/server-file.js`);
const { clientFile } = await import(`${root}/emit/client/client-file.js`);
const { toolTypeNames } = await import(`${root}/emit/shared/naming.js`);
const { toolTypeUnits } = await import(`${root}/emit/types/tool-types.js`);
const { unitMarker } = await import(`${root}/printer/format.js`);
const { UnitCache } = await import(`${root}/write/unit-cache.js`);
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
async function area(model, cache, clientCache = cache) {
  const names = toolTypeNames(model);
  const memo = (k, i, c) => cache.memoAsync(k, i, c);
  const clientMemo = (k, i, c) => clientCache.memoAsync(k, i, c);
  const mods = new Map(model.tools.map((t) => [t.name, `./validators/${t.ids.camel}.js`]));
  const c0 = cpu(), t0 = performance.now();
  const types = await typesFile(model, memo);
  const server = await serverFile(model, names, mods, memo);
  const c1 = cpu();
  const tools = await toolTypeUnits(model, names, FIXED_NAMES, clientMemo);
  const ctypes = await assembleTypes([tools.toolsMap, '\n', unitMarker('types'), '\n\n', promptArgumentTypes(model)].join(''), tools, clientMemo);
  const client = await clientFile(model, names, true, clientMemo);
  const c2 = cpu();
  return { server: c1 - c0, client: c2 - c1, wall: performance.now() - t0, out: [types, server, ctypes, client] };
}
console.log('load', loadavg().map((x) => x.toFixed(2)).join(' '));
const { model } = await loadManifest(process.argv[2]);
const { model: changed } = await loadManifest(process.argv[3] ?? process.argv[2]);
let text;
if (process.env.CACHE_IN) {
  text = readFileSync(process.env.CACHE_IN, 'utf8');
} else {
  let cache;
  for (let i = 0; i < Number(process.env.COLD_RUNS ?? 1); i++) {
    // Separate caches, as the server and the client are separate output folders.
    cache = UnitCache.empty('x');
    // The cache saved for a warm run serves both (the client's type units are the server's).
    const cold = await area(model, cache, process.env.CACHE_OUT ? cache : UnitCache.empty('x'));
    console.log(`cold: server ${cold.server.toFixed(0)} ms cpu, client ${cold.client.toFixed(0)} ms cpu`);
  }
  text = cache.text();
  if (process.env.CACHE_OUT) (await import('node:fs')).writeFileSync(process.env.CACHE_OUT, text);
}
for (let i = 0; i < Number(process.env.WARM_RUNS ?? 3); i++) {
  const warmCache = UnitCache.fromText(text, 'x');
  const warm = await area(changed, warmCache);
  console.log(`warm: server ${warm.server.toFixed(0)} ms cpu, client ${warm.client.toFixed(0)} ms cpu, misses ${warmCache.misses}`);
}
