/**
 * A 2025-11-25 task's messages without affinity (message-bus.ts): its progress and its requests to
 * the client go on the stream of a waiting `tasks/result`, but that request may have landed on
 * another process than the one running the task. When no stream here can take a message, it is
 * posted to the task's mailbox on the bus and a `task-mail` envelope wakes whichever process holds
 * a waiting `tasks/result`, which takes the mailbox and sends it on. A `tasks/result` that finds
 * the task ended takes what is left before the result, so nothing the task said is lost.
 */
import type { BusLink } from '../../server/message-bus.js';
import { stackOf } from '../../server/method-common.js';
import type { Outbound } from '../../server/outbound.js';
import { keepMs, type TaskRecord } from '../../server/task-store.js';

const MAIL = 'task-mail';
/** Per bus: the wake-ups of the `tasks/result` requests waiting here, by task id. */
const waiters = new WeakMap<BusLink, Map<string, Set<() => void>>>();

/** Posts one message of a task to its mailbox, then wakes a waiting `tasks/result` wherever it is. */
export async function postTaskMail(link: BusLink, record: TaskRecord, text: string): Promise<void> {
  await link.bus.post(record.taskId, text, keepMs(record));
  link.send(MAIL, { t: record.taskId });
}

/** Sends what the task's mailbox holds on `out`, oldest first. */
export async function deliverTaskMail(link: BusLink, taskId: string, out: Outbound): Promise<void> {
  for (const text of await link.bus.take(taskId)) out.emit(text);
}

/**
 * A `tasks/result` waiting here: the task's mail goes on `out` as it is posted. `finish` takes
 * what is left and stops watching; the result goes after it.
 */
export function watchTaskMail(
  link: BusLink,
  taskId: string,
  out: Outbound,
  log: (line: string) => void,
): { finish(): Promise<void> } {
  let byTask = waiters.get(link);
  if (byTask === undefined) {
    const table = new Map<string, Set<() => void>>();
    waiters.set(link, table);
    link.on(MAIL, (envelope) => {
      const id = envelope['t'];
      for (const wake of (typeof id === 'string' ? table.get(id) : undefined) ?? []) wake();
    });
    byTask = table;
  }
  const table = byTask;
  // One take at a time, so the messages keep their order on the stream.
  let taking = Promise.resolve();
  const wake = (): void => {
    taking = taking
      .then(() => deliverTaskMail(link, taskId, out))
      .catch((error: unknown) =>
        log(`Taking the messages of task ${taskId} failed: ${stackOf(error)}`),
      );
  };
  const set = table.get(taskId) ?? new Set<() => void>();
  table.set(taskId, set.add(wake));
  wake(); // what was posted before this request came
  return {
    finish: () => {
      set.delete(wake);
      if (set.size === 0) table.delete(taskId);
      wake();
      return taking;
    },
  };
}
