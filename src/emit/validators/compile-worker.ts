import { parentPort } from 'node:worker_threads';
import type { Dialect } from './ajv-instance.js';
import { compileJob } from './compile-unit.js';
import type { CompiledValidatorCode } from './index.js';
import type { ToolValidatorUnit } from './tool-validators.js';

/** A worker thread of compile-units.ts: compiles the tools it is sent, in the order sent. */

export interface CompileJob {
  dialect: Dialect;
  units: ToolValidatorUnit[];
}

/** The job's results in its order, or the message of the first error (the same text a run in-process throws). */
export type CompileReply = { results: CompiledValidatorCode[] } | { error: string };

const port = parentPort;
if (!port) throw new Error('compile-worker: runs only as a worker thread');
port.on('message', (job: CompileJob) => {
  port.postMessage(compileJob(job));
});
