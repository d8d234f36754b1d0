import { formatUnit } from '../../printer/format.js';
import { runInWorker, workerEntry } from '../../printer/worker-thread.js';
import { declarationsLayout, splitDeclarations } from './declarations-layout.js';
import { onStandby } from '../compiler-standby.js';
import { compileShared, compileToolUnit, type SharedDefinition, type ToolSchemas, type UnitTypeNames } from './tool-unit.js';

/**
 * Compiling and formatting the units of a types file, on a worker thread when there are many.
 * json-schema-to-typescript and prettier cost the same again for every tool: for a large server
 * that is the largest piece of the main thread's work, and nothing else waits on it until types.ts is
 * assembled, so it runs beside the rest of the plan (the validators compile on threads of their
 * own, compile-units.ts). A unit's bytes do not depend on where it was compiled.
 */

export type TypeUnitJob = { kind: 'tool'; tool: ToolSchemas; names: UnitTypeNames } | { kind: 'shared' };

export interface TypeUnitBatch {
  shared: [string, SharedDefinition][];
  jobs: TypeUnitJob[];
}

/** Each job's formatted code, or the message of its error, in the batch's order. */
export type TypeUnitReply = ({ code: string } | { error: string })[];

/**
 * Fewer units than this compile in-process: starting a worker means loading
 * json-schema-to-typescript and prettier again, which only many units pay back (`npm run bench:scale` measures it).
 */
export const TYPE_WORKER_THRESHOLD = 100;

/** One unit compiled and formatted, in whichever thread runs it. */
export async function runTypeUnitJob(job: TypeUnitJob, shared: ReadonlyMap<string, SharedDefinition>): Promise<string> {
  const code = job.kind === 'tool' ? await compileToolUnit(job.tool, job.names, shared) : await compileShared(shared);
  return layoutDeclarations(code);
}

/**
 * json-schema-to-typescript's declarations in prettier's layout: laid out directly when they are
 * plain (nearly always), else a declaration at a time, prettier getting only those the direct
 * layout declines (the same bytes: it formats top-level statements one by one).
 */
export async function layoutDeclarations(code: string): Promise<string> {
  const direct = declarationsLayout(code);
  if (direct !== undefined) return direct;
  const pieces = splitDeclarations(code);
  if (pieces === undefined || pieces.length < 2) return formatUnit(code, undefined);
  const laidOut = await Promise.all(pieces.map((piece) => declarationsLayout(piece.text) ?? formatUnit(piece.text, undefined)));
  return laidOut.map((text, i) => (pieces[i]?.blankBefore === true ? `\n${text}` : text)).join('');
}

/** A batch compiled in this thread, each unit's code or error message in the batch's order (what a worker answers). */
export function runTypeUnitBatch(batch: TypeUnitBatch): Promise<TypeUnitReply> {
  const shared = new Map(batch.shared);
  return Promise.all(
    batch.jobs.map((job) =>
      runTypeUnitJob(job, shared).then(
        (code) => ({ code }),
        (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
      ),
    ),
  );
}

interface Pending {
  job: TypeUnitJob;
  resolve: (code: string) => void;
  reject: (error: unknown) => void;
}

/** Settles each pending unit with a worker's reply for it. */
function answer(batch: readonly Pending[], replies: TypeUnitReply): void {
  batch.forEach((p, i) => {
    const reply = replies[i];
    if (reply === undefined) p.reject(new Error('types: a worker answered fewer units than it was sent'));
    else if ('error' in reply) p.reject(new Error(reply.error));
    else p.resolve(reply.code);
  });
}

/**
 * A compile function for one run's units: every job asked for in the same turn of the event loop
 * (a cold run asks for all of them at once) goes to one worker thread when there are enough of
 * them, else is compiled here.
 */
export function typeUnitCompiler(shared: ReadonlyMap<string, SharedDefinition>): (job: TypeUnitJob) => Promise<string> {
  let pending: Pending[] = [];
  const flush = (): void => {
    const batch = pending;
    pending = [];
    const entry = batch.length >= TYPE_WORKER_THRESHOLD ? workerEntry(import.meta.url, 'type-units-worker') : undefined;
    const request: TypeUnitBatch = { shared: [...shared], jobs: batch.map((p) => p.job) };
    const inProcess = (): void => {
      for (const p of batch) runTypeUnitJob(p.job, shared).then(p.resolve, p.reject);
    };
    if (entry === undefined) {
      // A few units: to the compilers on standby when a warm run started them, else here.
      void onStandby<TypeUnitBatch, TypeUnitReply>('types', request).then((replies) => (replies === undefined ? inProcess() : answer(batch, replies)));
      return;
    }
    runInWorker<TypeUnitBatch, TypeUnitReply>(entry, request, 'types').then(
      (replies) => answer(batch, replies),
      (error) => batch.forEach((p) => p.reject(error)),
    );
  };
  return (job) =>
    new Promise((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ job, resolve, reject });
    });
}
