import { Worker } from 'node:worker_threads';
import type { WorkerEntry } from './worker-thread.js';

/**
 * A worker thread kept for a whole run, answering any number of requests. worker-thread.ts starts
 * a thread per batch, which pays off for hundreds of units; this one is started before it is
 * needed, so it loads its libraries while the main thread does other work (compiler-standby.ts).
 *
 * It never keeps the process alive by itself: it holds the event loop only while a request waits
 * for its reply. When the thread fails, every waiting and later request is rejected (callers then
 * do the work in-process).
 */

interface Reply {
  id: number;
  reply?: unknown;
  error?: string;
}

export class StandbyWorker {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (reply: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private failure: Error | undefined;
  /** Requests answered so far. */
  answered = 0;

  constructor(entry: WorkerEntry) {
    this.worker = new Worker(entry.file, entry.workerData ? { workerData: entry.workerData } : {});
    this.worker.unref();
    this.worker.on('message', (message: Reply) => {
      const waiter = this.waiting.get(message.id);
      if (waiter === undefined) return;
      this.settled(message.id);
      this.answered++;
      if (message.error !== undefined) waiter.reject(new Error(message.error));
      else waiter.resolve(message.reply);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`a standby worker exited (code ${code})`)));
  }

  /** Sends `request` for `task`; resolves with the thread's reply. */
  request<Request, Answer>(task: string, request: Request): Promise<Answer> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, { resolve: resolve as (reply: unknown) => void, reject });
      this.worker.postMessage({ id, task, request });
    });
  }

  /** Ends the thread; requests still waiting are rejected. */
  close(): void {
    this.fail(new Error('the standby worker was closed'));
    void this.worker.terminate();
  }

  private settled(id: number): void {
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker.unref();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const [id, waiter] of this.waiting) {
      this.settled(id);
      waiter.reject(error);
    }
  }
}
