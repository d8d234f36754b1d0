// A worker thread's entry for code run from the TypeScript sources (vitest), where Node cannot
// load `.ts` by itself: registers ts-worker-hooks.mjs, then loads the entry module named in
// `workerData.entry`. src/emit/validators/compile-units.ts starts its workers through this file
// when MCP_GEN_TS_WORKER_BOOTSTRAP names it.
import { register } from 'node:module';
import { workerData } from 'node:worker_threads';

register('./ts-worker-hooks.mjs', import.meta.url);
await import(workerData.entry);
