/**
 * Cancellation across processes: with a shared task store (`TaskStore.shared`, e.g. Redis), a
 * `tasks/cancel` answered by another process only marks the task cancelled in the store. Each
 * process therefore re-reads the records of the tasks it runs once per poll interval and aborts
 * the handler of any found cancelled there.
 *
 * Why polling and not pub/sub: it needs nothing from the store but `load` (any shared store works,
 * no second Redis connection in subscriber mode), it cannot miss a message while a connection is
 * down, and its cost is bounded: one timer per process, one read per running task per interval
 * (node-redis pipelines the reads of one tick into one round trip). The delay is at most one poll
 * interval, the same a polling client waits to see the status.
 */
import { isObject } from '../../protocol/jsonrpc.js';
import { stackOf } from '../../server/method-common.js';
import type { ServerCore } from '../../server/server.js';
import { updateTaskInputs } from './task-inputs.js';

/** Bus envelopes (message-bus.ts) for a task another process runs: `tasks/update`, `tasks/cancel`. */
export const TASK_UPDATE = 'task-update';
export const TASK_CANCEL = 'task-cancel';
const routed = new WeakSet<ServerCore>();

/**
 * Without affinity, `tasks/update` and `tasks/cancel` may land on a process that does not run the
 * task: it passes them on the bus, and the process running the task acts on them at once.
 */
function routeTaskControl(core: ServerCore): void {
  const link = core.bus;
  if (link === undefined || routed.has(core)) return;
  routed.add(core);
  link.on(TASK_UPDATE, (envelope) => {
    const run = typeof envelope['t'] === 'string' ? core.taskRuns.get(envelope['t']) : undefined;
    if (run !== undefined && isObject(envelope['r']))
      updateTaskInputs(run, envelope['r']).catch((error: unknown) =>
        core.log(`Updating task ${run.record.taskId} failed: ${stackOf(error)}`),
      );
  });
  link.on(TASK_CANCEL, (envelope) => {
    if (typeof envelope['t'] === 'string') core.taskRuns.get(envelope['t'])?.cancel();
  });
}

const watching = new WeakSet<ServerCore>();

/** Starts the process's check of its running tasks, when the store is shared and none is running yet. */
export function watchForCancellation(core: ServerCore): void {
  routeTaskControl(core);
  if (core.taskStore.shared !== true || watching.has(core)) return;
  watching.add(core);
  let checking = false;
  const timer = setInterval(() => {
    if (core.taskRuns.size === 0) {
      clearInterval(timer);
      watching.delete(core);
      return;
    }
    if (checking) return;
    checking = true;
    const checks = [...core.taskRuns.values()].map((run) =>
      core.taskStore.load(run.record.taskId).then((stored) => {
        if (stored?.status === 'cancelled') run.cancel();
      }),
    );
    Promise.all(checks)
      .catch((error: unknown) =>
        core.log(`Checking running tasks for cancellation failed: ${stackOf(error)}`),
      )
      .finally(() => {
        checking = false;
      });
  }, core.taskSettings.pollIntervalMs);
  // The check never keeps the process alive on its own.
  timer.unref?.();
}
