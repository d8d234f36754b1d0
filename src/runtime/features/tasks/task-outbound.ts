import type { Outbound } from '../../server/outbound.js';
import type { TaskRun } from './task-run.js';
import { postTaskMail } from './task-mail.js';

/**
 * The task's answer channel. Before a 2026-07-28 run becomes a task, everything goes to the
 * request; afterwards the answer becomes the task's result, and a 2025-11-25 task's requests and
 * notifications go on the newest waiting `tasks/result` stream, else on the session's own.
 */
export class TaskOutbound implements Outbound {
  private readonly run: TaskRun;
  /** Settles once every message posted to the task's mailbox so far is there (task-mail.ts). */
  mailed: Promise<void> = Promise.resolve();

  constructor(run: TaskRun) {
    this.run = run;
  }

  respond(text: string): void {
    if (this.run.promoted) this.run.finish(text);
    else {
      this.run.core.taskRuns.delete(this.run.record.taskId);
      this.run.requestOut.respond(text);
    }
  }

  emit(text: string): void {
    const target = this.target();
    const run = this.run;
    if (target !== undefined && target.canEmit) target.emit(text);
    else if (run.promoted && !run.session.stateless && run.core.bus !== undefined) {
      // Without affinity the next tasks/result may come to another process: the bus carries it.
      const link = run.core.bus;
      this.mailed = this.mailed
        .then(() => postTaskMail(link, run.record, text))
        .catch((error: unknown) => run.core.log(`Posting a task message failed: ${String(error)}`));
    } else if (run.promoted && !run.session.stateless) run.queued.push(text);
  }

  abandon(): void {
    if (!this.run.promoted) this.run.requestOut.abandon();
  }

  /** A 2025-11-25 task can always emit: without a stream, its messages wait for the next `tasks/result`. */
  get canEmit(): boolean {
    if (this.run.promoted && !this.run.session.stateless) return true;
    return this.target()?.canEmit ?? false;
  }

  private target(): Outbound | undefined {
    const run = this.run;
    if (!run.promoted) return run.requestOut;
    if (run.session.stateless) return undefined;
    return run.latestWaiter ?? run.session.standalone;
  }
}
