import { parentPort } from 'node:worker_threads';
import type { StandbyTask } from './compiler-standby.js';
import type { TypeUnitBatch, TypeUnitReply } from './types/type-unit-jobs.js';
import type { CompileJob, CompileReply } from './validators/compile-worker.js';

/** The thread of compiler-standby.ts: loads both compilers at once, then answers requests as they come. */

const port = parentPort;
if (!port) throw new Error('compiler-standby-thread: runs only as a worker thread');

// Loaded now, while the main thread reads the manifest, and each run once on a small schema: a
// compiler's first unit costs far more than the next (ajv builds its instance), so by the
// time a unit misses, that is done.
const WARM_UP = { type: 'object', properties: { name: { type: 'string', pattern: '^[a-z]+$' }, count: { type: 'integer', minimum: 0 } }, required: ['name'] };
const types = import('./types/type-unit-jobs.js').then(async (module) => {
  await module.runTypeUnitJob({ kind: 'tool', tool: { inputSchema: WARM_UP }, names: { input: 'WarmUp' } }, new Map());
  return module;
});
const validators = import('./validators/compile-unit.js').then((module) => {
  // The dialect of nearly every manifest; a draft-07 one builds its instance on its first unit.
  // Marked checked: the loader checks a changed tool against the meta-schema itself (schema-precheck.ts),
  // so compiling ajv's meta-schema here would be spent for nothing.
  module.compileUnit({ root: { $defs: { WarmUp: WARM_UP } }, entries: [{ exportName: 'validateWarmUp', ref: '#/$defs/WarmUp', typeName: 'WarmUp' }], metaChecked: true }, '2020-12');
  return module;
});
// A failed load shows when a request needs it (and the main thread then compiles in-process).
types.catch(() => {});
validators.catch(() => {});

async function answer(task: StandbyTask, request: unknown): Promise<TypeUnitReply | CompileReply> {
  if (task === 'types') return (await types).runTypeUnitBatch(request as TypeUnitBatch);
  return (await validators).compileJob(request as CompileJob);
}

port.on('message', ({ id, task, request }: { id: number; task: StandbyTask; request: unknown }) => {
  answer(task, request).then(
    (reply) => port.postMessage({ id, reply }),
    (error: unknown) => port.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  );
});
