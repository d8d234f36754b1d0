import { parentPort } from 'node:worker_threads';
import { runTypeUnitBatch, type TypeUnitBatch, type TypeUnitReply } from './type-unit-jobs.js';

/** A worker thread of type-unit-jobs.ts: compiles and formats the units it is sent, answers them in order. */

const port = parentPort;
if (!port) throw new Error('type-units-worker: runs only as a worker thread');
port.on('message', (batch: TypeUnitBatch) => {
  void runTypeUnitBatch(batch).then((reply: TypeUnitReply) => port.postMessage(reply));
});
