import { parentPort } from 'node:worker_threads';
import { runTypeUnitJob, type TypeUnitBatch, type TypeUnitReply } from './type-unit-jobs.js';

/** A worker thread of type-unit-jobs.ts: compiles and formats the units it is sent, answers them in order. */

const port = parentPort;
if (!port) throw new Error('type-units-worker: runs only as a worker thread');
port.on('message', (batch: TypeUnitBatch) => {
  const shared = new Map(batch.shared);
  void Promise.all(
    batch.jobs.map((job) =>
      runTypeUnitJob(job, shared).then(
        (code) => ({ code }),
        (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
      ),
    ),
  ).then((reply: TypeUnitReply) => port.postMessage(reply));
});
