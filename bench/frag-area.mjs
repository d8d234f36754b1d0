// Area B timing (in-process): types.ts + server.ts of the server, types.ts + client.ts of the client,
// each including their prettier pass, cold (empty unit cache) and warm (one tool changed).
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
const root = new URL('../dist', import.meta.url).pathname;
const { loadManifest } = await import(`${root}/pipeline/manifest.js`);
const { planServer } = await import(`${root}/emit/server/index.js`);
const { planClient } = await import(`${root}/emit/client/index.js`);
const { readRuntimeSources } = await import(`${root}/cli/server-command.js`);
const { renderFile } = await import(`${root}/write/render.js`);
const { UnitCache } = await import(`${root}/write/unit-cache.js`);
const clientCmd = await import(`${root}/cli/client-command.js`);
const manifestPath = process.argv[2] ?? '/tmp/sc/manifest.json';
const changedPath = process.argv[3];
const AREA = new Set(['generated/types.ts', 'generated/server.ts', 'types.ts', 'client.ts']);
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
async function run(label, path, cache, which) {
  const { model } = await loadManifest(path);
  const memos = cache ? { memo: cache.memo, memoAsync: (k, i, c) => cache.memoAsync(k, i, c) } : {};
  const t0 = performance.now(), c0 = cpu();
  const h0 = cache?.hits ?? 0, m0 = cache?.misses ?? 0;
  let plan;
  if (which === 'server') plan = await planServer(model, { runtimeSources: readRuntimeSources(), ...memos });
  else plan = await planClient(model, { runtimeSources: clientCmd.readClientRuntimeSources(false), protocolTypes: readFileSync(new URL('../generated/protocol/2025-11-25/types.ts', import.meta.url), 'utf8'), statelessProtocolTypes: readFileSync(new URL('../generated/protocol/2026-07-28/types.ts', import.meta.url), 'utf8'), ...memos });
  const t1 = performance.now(), c1 = cpu();
  let fmt = 0; const out = {};
  for (const f of plan.files.filter((f) => AREA.has(f.path))) {
    const s = performance.now();
    out[f.path] = await renderFile(f, {}, cache ? (k, i, c) => cache.memoAsync(k, i, c) : undefined);
    fmt += performance.now() - s;
  }
  const c2 = cpu();
  console.log(`${label.padEnd(14)} plan ${(t1 - t0).toFixed(0)} ms (cpu ${(c1 - c0).toFixed(0)}), area render ${fmt.toFixed(0)} ms, cpu total ${(c2 - c0).toFixed(0)} ms` + (cache ? `, hits ${cache.hits - h0} misses ${cache.misses - m0}` : ''));
  return out;
}
console.log('load', loadavg().map((x) => x.toFixed(2)).join(' '));
for (const which of ['server', 'client']) {
  const cache = UnitCache.empty('x');
  const cold = await run(`${which} cold`, manifestPath, cache, which);
  const warmCache = UnitCache.fromText(cache.text(), 'x');
  if (changedPath) await run(`${which} warm`, changedPath, warmCache, which);
  const same = UnitCache.fromText(cache.text(), 'x');
  const again = await run(`${which} same`, manifestPath, same, which);
  for (const k of Object.keys(cold)) if (cold[k] !== again[k]) console.log('DIFFERS', k);
}
