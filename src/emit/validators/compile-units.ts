import { availableParallelism } from 'node:os';
import { runInWorker, workerEntry, type WorkerEntry } from '../../printer/worker-thread.js';
import type { Dialect } from './ajv-instance.js';
import type { CompileJob, CompileReply } from './compile-worker.js';
import type { CompiledValidatorCode } from './index.js';
import type { ToolValidatorUnit } from './tool-validators.js';
import { onStandby } from '../compiler-standby.js';

/**
 * Compiles tools' validators, on worker threads when there are enough of them. ajv is most of the
 * time a large manifest takes: split over two threads it costs less wall time, and the main
 * thread goes on planning (types, server.ts) meanwhile. Each tool is compiled on its own
 * (compile-unit.ts), so where it runs cannot change its code; results come back in tool order.
 */

/**
 * Fewer tools than this compile in-process: a worker must load ajv and compile its meta-schema
 * before its first tool, which only many tools pay back (`npm run bench:scale` measures it).
 */
const WORKER_THRESHOLD = 100;
const MAX_WORKERS = 2;

export interface CompileUnitsOptions {
  /** Worker threads to use; by default up to two, with two cores left to the rest (defaultWorkers; none where workers cannot start). */
  workers?: number;
}

/**
 * Validator threads by default: none below WORKER_THRESHOLD tools, and one core left to the main
 * thread (planning, the shared definitions) and one to the types thread (type-unit-jobs.ts), so a
 * 2-core machine compiles in-process. Measured on one (bench/RESULTS.md): two validator threads
 * there made GitHub's server 10 % slower in wall and CPU time and 8 % heavier, its client 9 %
 * slower, and the 1,000-tool client 14 % slower; only the 1,000-tool server gained (7 % wall).
 */
function defaultWorkers(units: number): number {
  if (units < WORKER_THRESHOLD) return 0;
  return Math.max(0, Math.min(MAX_WORKERS, availableParallelism() - 2));
}

export async function compileUnits(units: readonly ToolValidatorUnit[], dialect: Dialect, options: CompileUnitsOptions = {}): Promise<CompiledValidatorCode[]> {
  const entry = workerEntry(import.meta.url, 'compile-worker');
  const workers = Math.min(options.workers ?? defaultWorkers(units.length), entry === undefined ? 0 : units.length);
  if (workers === 0 || entry === undefined) {
    // A few tools: to the compilers on standby when a warm run started them (compiler-standby.ts).
    const reply = units.length === 0 ? undefined : await onStandby<CompileJob, CompileReply>('validators', { dialect, units: [...units] });
    if (reply !== undefined) {
      if ('error' in reply) throw new Error(reply.error);
      return reply.results;
    }
    // Loaded on demand: a run whose validators all come from the cache never loads ajv.
    const { compileUnit } = await import('./compile-unit.js');
    return units.map((unit) => compileUnit(unit, dialect));
  }
  return compileInWorkers(units, dialect, workers, entry);
}

/**
 * Each worker gets its share up front (contiguous), so none waits for the main thread to hand out
 * more work while it is busy planning the rest. Shares are even in validators, not units: a unit
 * costs about its number of validators, and one unit may hold a thousand (a client's shared
 * definitions, tool-validators.ts), which an even count of units would leave to one thread.
 */
async function compileInWorkers(units: readonly ToolValidatorUnit[], dialect: Dialect, workers: number, entry: WorkerEntry): Promise<CompiledValidatorCode[]> {
  const results = await Promise.all(workerShares(units, workers).map((share) => runJob({ dialect, units: share }, entry)));
  return results.flat();
}

/** The units cut into at most `workers` contiguous shares of about as many validators each, in order. */
export function workerShares<U extends Pick<ToolValidatorUnit, 'entries'>>(units: readonly U[], workers: number): U[][] {
  const weight = (unit: U): number => Math.max(1, unit.entries.length);
  const total = units.reduce((sum, unit) => sum + weight(unit), 0);
  const shares: U[][] = [];
  let start = 0;
  let done = 0;
  for (let n = 1; n <= workers && start < units.length; n++) {
    // This share ends where the validators so far reach n/workers of the total (the last takes the rest).
    let end = start;
    while (end < units.length && (n === workers || end === start || done + weight(units[end] as U) <= (total * n) / workers)) done += weight(units[end++] as U);
    shares.push(units.slice(start, end));
    start = end;
  }
  return shares;
}

async function runJob(job: CompileJob, entry: WorkerEntry): Promise<CompiledValidatorCode[]> {
  const reply = await runInWorker<CompileJob, CompileReply>(entry, job, 'emitToolValidators');
  if ('error' in reply) throw new Error(reply.error);
  return reply.results;
}
