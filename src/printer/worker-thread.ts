import { isMainThread, Worker } from 'node:worker_threads';

/**
 * Running one pure batch of work (formatting, compiling units) on a worker thread: where the
 * worker's module is, and one request answered by one reply. The thread is gone once it has
 * answered. Only the main thread starts workers: work a worker does itself stays on its thread.
 */

/** How to start a worker: its built module; from TypeScript sources, a bootstrap that can load them. */
export interface WorkerEntry {
  file: URL;
  workerData?: { entry: string };
}

/**
 * The CLI runs from `dist/`, where the worker module (`name`.js) sits beside the caller's module
 * (`callerUrl`). Run from the TypeScript sources (vitest) there is no such file, and Node cannot
 * load `.ts` by itself: workers are used only when MCP_GEN_TS_WORKER_BOOTSTRAP names a module that
 * can (the tests' own, which loads the entry named in `workerData`). Without one, callers do the
 * work in-process, to the same bytes.
 */
export function workerEntry(callerUrl: string, name: string): WorkerEntry | undefined {
  if (!isMainThread) return undefined;
  if (!callerUrl.endsWith('.ts')) return { file: new URL(`./${name}.js`, callerUrl) };
  const bootstrap = process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'];
  if (bootstrap === undefined || bootstrap === '') return undefined;
  return { file: new URL(bootstrap, 'file:///'), workerData: { entry: new URL(`./${name}.ts`, callerUrl).href } };
}

/** Starts a worker, sends it `request`, and resolves with its one reply; `what` names it in errors. */
export function runInWorker<Request, Reply>(entry: WorkerEntry, request: Request, what: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry.file, entry.workerData ? { workerData: entry.workerData } : {});
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      outcome();
      void worker.terminate();
    };
    worker.once('message', (reply: Reply) => settle(() => resolve(reply)));
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) => settle(() => reject(new Error(`${what}: a worker exited (code ${code}) before answering`))));
    worker.postMessage(request);
  });
}
