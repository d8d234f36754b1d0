/**
 * Handler timeouts with one timer per server instead of a timer per call (a `setTimeout` and a
 * `clearTimeout` per request cost about as much as the tool call's own bookkeeping). Every timed
 * request gets the same timeout, so requests expire in the order they started: the insertion order
 * of a Map is the queue, and the single timer is armed for its oldest entry.
 */
import { performance } from 'node:perf_hooks';

export class Deadlines<T> {
  private readonly timeoutMs: number;
  private readonly expire: (entry: T) => void;
  /** Entry → its deadline on the `performance.now()` clock, oldest first. */
  private readonly queue = new Map<T, number>();
  private timer: NodeJS.Timeout | undefined = undefined;

  constructor(timeoutMs: number, expire: (entry: T) => void) {
    this.timeoutMs = timeoutMs;
    this.expire = expire;
  }

  add(entry: T): void {
    const deadline = performance.now() + this.timeoutMs;
    this.queue.set(entry, deadline);
    if (this.timer === undefined) this.arm(deadline);
  }

  /** The timer stays armed: when it fires it finds the queue empty or re-arms for the next entry. */
  delete(entry: T): void {
    this.queue.delete(entry);
  }

  private arm(deadline: number): void {
    // Deadlines only grow: an armed timer is due no later than this one.
    if (this.timer !== undefined) return;
    this.timer = setTimeout(this.fire, Math.max(1, Math.ceil(deadline - performance.now())));
    // A pending timeout never keeps the process alive on its own.
    this.timer.unref();
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    const now = performance.now();
    for (const [entry, deadline] of this.queue) {
      if (deadline > now) {
        this.arm(deadline);
        return;
      }
      this.queue.delete(entry);
      this.expire(entry);
    }
  };
}
