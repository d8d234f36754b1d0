/**
 * The heartbeat of the tasks this process runs, for a task store with a lease (`TaskStore.lease`,
 * redis-lease.ts with `--redis`): every `renewMs` while any task runs here, their ids are handed to
 * `lease.hold`, which renews their leases. A process that is killed stops renewing, and the next
 * process reading such a task after the lease lapses marks it `failed` instead of `working` forever.
 */
import { stackOf } from '../../server/method-common.js';
import type { ServerCore } from '../../server/server.js';

const holding = new WeakSet<ServerCore>();

/** Starts renewing the leases of this process's running tasks, when the store has leases and no renewal runs yet. */
export function holdLeases(core: ServerCore): void {
  const lease = core.taskStore.lease;
  if (lease === undefined || holding.has(core)) return;
  holding.add(core);
  let renewing = false;
  const renew = (): void => {
    if (core.taskRuns.size === 0) {
      clearInterval(timer);
      holding.delete(core);
      return;
    }
    if (renewing) return;
    renewing = true;
    lease
      .hold([...core.taskRuns.keys()])
      .catch((error: unknown) => core.log(`Renewing task leases failed: ${stackOf(error)}`))
      .finally(() => {
        renewing = false;
      });
  };
  const timer = setInterval(renew, lease.renewMs);
  // The renewal never keeps the process alive on its own.
  timer.unref();
  // The first renewal on the next turn, once the task that started this is in `taskRuns`.
  setImmediate(renew);
}
