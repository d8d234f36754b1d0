/// <reference types="node" />
/**
 * 2025-11-25 `tasks/list`: the session's tasks, oldest first, in pages of the definition's
 * `pageSize` (the manifest's list setting, default 100) with opaque cursors.
 *
 * Unlike the other lists, tasks come and go while a client pages through them, so a cursor names
 * the last task of the page it ends (its creation time and id), not an offset: the next page starts
 * after that task, and a task that expired meanwhile shifts nothing. Tasks created in the same
 * millisecond are ordered by id; one created in the very millisecond of a cursor's task, with a
 * lower id, after that cursor was issued, is not on the pages that follow (it is on a new listing).
 */
import { Buffer } from 'node:buffer';
import type { JsonObject } from '../../api.js';
import { errorMessage, resultMessage } from '../../protocol/jsonrpc.js';
import { invalidCursor } from '../../server/lists.js';
import { stackOf } from '../../server/method-common.js';
import type { Outbound } from '../../server/outbound.js';
import type { Session } from '../../server/session.js';
import type { TaskRecord } from '../../server/task-store.js';
import { statefulTask } from '../../server/task-wire.js';
import { TASKS_LIST } from '../../protocol/methods.js';

const PREFIX = 'tasks:';

function cursorAfter(record: TaskRecord): string {
  return Buffer.from(`${PREFIX}${record.createdAt}|${record.taskId}`).toString('base64url');
}

/** The (createdAt, taskId) a cursor this server issued names; undefined for anything else. */
function readCursor(cursor: unknown): { createdAt: string; taskId: string } | undefined {
  if (typeof cursor !== 'string' || cursor.length > 256) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(PREFIX)) return undefined;
  const bar = text.indexOf('|');
  if (bar === -1) return undefined;
  const position = { createdAt: text.slice(PREFIX.length, bar), taskId: text.slice(bar + 1) };
  if (position.taskId === '' || Number.isNaN(Date.parse(position.createdAt))) return undefined;
  // base64url decoding forgives stray characters: only the exact text we would issue counts.
  return Buffer.from(`${PREFIX}${position.createdAt}|${position.taskId}`).toString('base64url') ===
    cursor
    ? position
    : undefined;
}

/** Oldest first; the id breaks ties, so every task has one place in the order. */
function compare(
  a: { createdAt: string; taskId: string },
  b: { createdAt: string; taskId: string },
): number {
  return a.createdAt < b.createdAt
    ? -1
    : a.createdAt > b.createdAt
      ? 1
      : a.taskId < b.taskId
        ? -1
        : a.taskId > b.taskId
          ? 1
          : 0;
}

/** Answers `tasks/list` from the owner's records (the caller checked the era and the capability). */
export function listTaskPage(
  session: Session,
  owner: string,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  const cursor = params['cursor'];
  const after = cursor === undefined ? undefined : readCursor(cursor);
  if (cursor !== undefined && after === undefined) {
    out.respond(invalidCursor(idText, TASKS_LIST));
    return;
  }
  const pageSize = session.core.definition.pageSize ?? 100;
  session.core.taskStore.list(owner).then(
    (records) => {
      const rest = records
        .sort(compare)
        .filter((record) => after === undefined || compare(record, after) > 0);
      const page = rest.slice(0, pageSize);
      const result: JsonObject = { tasks: page.map(statefulTask) };
      const last = page.at(-1);
      if (rest.length > pageSize && last !== undefined) result['nextCursor'] = cursorAfter(last);
      out.respond(resultMessage(idText, JSON.stringify(result)));
    },
    (error: unknown) => {
      session.core.log(`Listing tasks failed: ${stackOf(error)}`);
      out.respond(errorMessage(idText, -32603, 'Internal error: the task store could not be read'));
    },
  );
}
