import { StandbyWorker } from '../printer/standby-worker.js';
import { workerEntry } from '../printer/worker-thread.js';

/**
 * The compilers on standby. A warm run (the output folder's unit cache is sound) usually misses a
 * few units only, each compiled in-process in milliseconds, but loading json-schema-to-typescript
 * and ajv for them costs more than the compiling. So such a run starts one thread at once, which
 * loads both while the main thread reads the manifest; the units that miss, too few for the batch
 * workers (type-unit-jobs.ts, compile-units.ts), are sent to it. A unit's bytes do not depend on
 * the thread that compiled it. Where no thread can start (the TypeScript sources without a
 * bootstrap) or it fails, the units compile in-process as before.
 */

/** What the thread is asked: a types batch (type-unit-jobs.ts) or a validators job (compile-units.ts). */
export type StandbyTask = 'types' | 'validators';

let standby: StandbyWorker | undefined;

/** Starts the standby thread for this run (no-op when one runs); `stopCompilerStandby` ends it. */
export function startCompilerStandby(): void {
  if (standby !== undefined) return;
  const entry = workerEntry(import.meta.url, 'compiler-standby-thread');
  if (entry === undefined) return;
  try {
    standby = new StandbyWorker(entry);
  } catch {
    // No thread to be had here (a sandbox, a resource limit): the units compile in-process.
  }
}

export function stopCompilerStandby(): void {
  standby?.close();
  standby = undefined;
}

/** The running standby thread, if any. */
export function compilerStandby(): StandbyWorker | undefined {
  return standby;
}

/** Asks the standby thread, or answers undefined when there is none or it fails (the caller then works in-process). */
export async function onStandby<Request, Answer>(task: StandbyTask, request: Request): Promise<Answer | undefined> {
  if (standby === undefined) return undefined;
  try {
    return await standby.request<Request, Answer>(task, request);
  } catch {
    return undefined;
  }
}
