/**
 * The requests of a session that are not in flight yet: each waits for a validator table to load
 * (dispatch.ts). A client that goes meanwhile (an HTTP request's connection closes) marks its
 * requests, and they are never started.
 */
import type { Outbound } from './outbound.js';

export interface TableWaiter {
  readonly out: Outbound;
  gone: boolean;
}

export class TableWaiters {
  private readonly waiting = new Set<TableWaiter>();

  add(out: Outbound): TableWaiter {
    const waiter = { out, gone: false };
    this.waiting.add(waiter);
    return waiter;
  }

  /** The table loaded (or failed to): whether the request is still wanted. */
  loaded(waiter: TableWaiter): boolean {
    this.waiting.delete(waiter);
    return !waiter.gone;
  }

  /** The client behind `out` went. */
  clientGone(out: Outbound): void {
    for (const waiter of this.waiting) if (answersThrough(waiter.out, out)) waiter.gone = true;
  }
}

/** Whether answers on `from` reach `out`: beneath a batch's outbound or tracing's (server/tracing.ts) may be the request's own. */
export function answersThrough(from: Outbound, out: Outbound): boolean {
  let target: Outbound | undefined = from;
  while (target !== undefined && target !== out)
    target = (target as { readonly parent?: Outbound }).parent;
  return target === out;
}
