/// <reference types="node" />
/**
 * Handler timeouts with one timer per server instead of a timer per call (a `setTimeout` and a
 * `clearTimeout` per request cost about as much as the tool call's own bookkeeping). Every timed
 * request gets the same timeout, so requests expire in the order they started: the queue is a
 * list in start order, and the single timer is armed for its oldest entry.
 *
 * The list is threaded through the entries themselves. A Map would do, but its backing store is
 * rebuilt as calls come and go, and those copies outlive young-generation collections, which
 * grows a busy server's RSS (bench/RESULTS.md).
 */

/** Milliseconds on a monotonic clock (`process.uptime` needs no module, unlike `performance`). */
const now = (): number => process.uptime() * 1000;

export interface DeadlineEntry {
  /** When the entry expires, in whole ms on the `now()` clock; 0 while not queued. */
  deadlineAt: number;
  deadlinePrevious: DeadlineEntry | undefined;
  deadlineNext: DeadlineEntry | undefined;
  /** Called once when the deadline passes while the entry is still queued. */
  timedOut(): void;
}

export class Deadlines {
  private readonly timeoutMs: number;
  private oldest: DeadlineEntry | undefined = undefined;
  private newest: DeadlineEntry | undefined = undefined;
  private timer: NodeJS.Timeout | undefined = undefined;

  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
  }

  add(entry: DeadlineEntry): void {
    if (entry.deadlineAt !== 0) this.delete(entry);
    // Whole milliseconds: small integers are stored without an allocation.
    entry.deadlineAt = Math.ceil(now()) + this.timeoutMs;
    entry.deadlinePrevious = this.newest;
    entry.deadlineNext = undefined;
    if (this.newest === undefined) this.oldest = entry;
    else this.newest.deadlineNext = entry;
    this.newest = entry;
    this.arm(entry.deadlineAt);
  }

  /** The timer stays armed: when it fires it finds the queue empty or re-arms for the next entry. */
  delete(entry: DeadlineEntry): void {
    if (entry.deadlineAt === 0) return;
    const { deadlinePrevious: previous, deadlineNext: next } = entry;
    if (previous === undefined) this.oldest = next;
    else previous.deadlineNext = next;
    if (next === undefined) this.newest = previous;
    else next.deadlinePrevious = previous;
    entry.deadlineAt = 0;
    entry.deadlinePrevious = undefined;
    entry.deadlineNext = undefined;
  }

  private arm(deadline: number): void {
    // Deadlines only grow: an armed timer is due no later than this one.
    if (this.timer !== undefined) return;
    this.timer = setTimeout(this.fire, Math.max(1, deadline - now()));
    // A pending timeout never keeps the process alive on its own (Workers' timers are numbers: no unref).
    this.timer.unref?.();
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    const time = now();
    for (let entry = this.oldest; entry !== undefined; entry = this.oldest) {
      if (entry.deadlineAt > time) {
        this.arm(entry.deadlineAt);
        return;
      }
      this.delete(entry);
      entry.timedOut();
    }
  };
}
