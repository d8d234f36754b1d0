import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Dialect } from './ajv-instance.js';
import type { CompileJob, CompileReply } from './compile-worker.js';
import type { CompiledValidatorCode } from './index.js';
import type { ToolValidatorUnit } from './tool-validators.js';

/**
 * Compiles tools' validators, on worker threads when there are enough of them. A 1,000-tool
 * manifest is about 4 s of ajv: split over two threads it costs half the wall time, and the main
 * thread goes on planning (types, server.ts) meanwhile. Each tool is compiled on its own
 * (compile-unit.ts), so where it runs cannot change its code; results come back in tool order.
 */

/**
 * Fewer tools than this compile in-process: a worker costs about 150 ms of CPU to start (loading
 * ajv, compiling its meta-schema), as much as twenty tools.
 */
export const WORKER_THRESHOLD = 100;
const MAX_WORKERS = 2;

export interface CompileUnitsOptions {
  /** Worker threads to use; by default up to two (none below WORKER_THRESHOLD tools or where workers cannot start). */
  workers?: number;
}

export async function compileUnits(units: readonly ToolValidatorUnit[], dialect: Dialect, options: CompileUnitsOptions = {}): Promise<CompiledValidatorCode[]> {
  const entry = workerEntry();
  const workers = Math.min(
    options.workers ?? (units.length >= WORKER_THRESHOLD ? Math.min(MAX_WORKERS, availableParallelism()) : 0),
    entry === undefined ? 0 : units.length,
  );
  if (workers === 0 || entry === undefined) {
    // Loaded on demand: a run whose validators all come from the cache never loads ajv.
    const { compileUnit } = await import('./compile-unit.js');
    return units.map((unit) => compileUnit(unit, dialect));
  }
  return compileInWorkers(units, dialect, workers, entry);
}

/** How to start a worker: the built `compile-worker.js`; from TypeScript sources, a bootstrap that can load them. */
interface WorkerEntry {
  file: URL;
  workerData?: { entry: string };
}

/**
 * The CLI runs from `dist/`, where `compile-worker.js` sits beside this module. Run from the
 * TypeScript sources (vitest) there is no such file, and Node cannot load `.ts` by itself: workers
 * are used only when MCP_GEN_TS_WORKER_BOOTSTRAP names a module that can (the tests' own, which
 * loads the entry named in `workerData`). Without it the tools compile in-process, to the same bytes.
 */
function workerEntry(): WorkerEntry | undefined {
  if (!import.meta.url.endsWith('.ts')) return { file: new URL('./compile-worker.js', import.meta.url) };
  const bootstrap = process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'];
  if (bootstrap === undefined || bootstrap === '') return undefined;
  return { file: new URL(bootstrap, 'file:///'), workerData: { entry: new URL('./compile-worker.ts', import.meta.url).href } };
}

/**
 * Each worker gets its share up front (contiguous, tools cost about the same), so none waits for
 * the main thread to hand out more work while it is busy planning the rest.
 */
async function compileInWorkers(units: readonly ToolValidatorUnit[], dialect: Dialect, workers: number, entry: WorkerEntry): Promise<CompiledValidatorCode[]> {
  const share = Math.ceil(units.length / workers);
  const jobs: CompileJob[] = [];
  for (let start = 0; start < units.length; start += share) jobs.push({ dialect, units: units.slice(start, start + share) });
  const results = await Promise.all(jobs.map((job) => runJob(job, entry)));
  return results.flat();
}

function runJob(job: CompileJob, entry: WorkerEntry): Promise<CompiledValidatorCode[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry.file, entry.workerData ? { workerData: entry.workerData } : {});
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      outcome();
      void worker.terminate();
    };
    worker.once('message', (reply: CompileReply) => settle(() => ('error' in reply ? reject(new Error(reply.error)) : resolve(reply.results))));
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) => settle(() => reject(new Error(`emitToolValidators: a compile worker exited (code ${code}) before answering`))));
    worker.postMessage(job);
  });
}
