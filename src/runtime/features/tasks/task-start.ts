/**
 * A tools/call that runs as a task: the decision (the client's `params.task` in 2025-11-25, the
 * declared extension in 2026-07-28), the task record, and the run that starts the handler.
 */
import type { JsonObject } from '../../api.js';
import {
  METHOD_NOT_FOUND,
  TOO_MANY_REQUESTS,
  errorMessage,
  isObject,
  type RequestId,
} from '../../protocol/jsonrpc.js';
import { nodeCrypto } from '../../protocol/lazy-crypto.js';
import { metaOf } from '../../server/method-common.js';
import type { Outbound } from '../../server/outbound.js';
import type { ToolEntry } from '../../server/server.js';
import type { Session } from '../../server/session.js';
import { type TaskRecord } from '../../server/task-store.js';
import { TaskRun } from './task-run.js';
import { declaresExtension, missingExtension, ownerOf, TASKS_SINCE } from './task-access.js';

/**
 * Called by tools/call once the input is valid. Returns true when the call is handled here (run as
 * a task, or refused because it must be one), false for a plain call.
 */
export function callAsTask(
  session: Session,
  id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
  tool: ToolEntry,
  args: unknown,
): boolean {
  const support = tool.taskSupport;
  const { maxRunning } = session.core.taskSettings;
  if (
    support !== 'forbidden' &&
    session.core.taskRuns.size >= maxRunning &&
    (session.stateless ? declaresExtension(session) : isObject(params['task']))
  ) {
    out.respond(
      errorMessage(
        idText,
        TOO_MANY_REQUESTS,
        `Too many tasks running: at most ${maxRunning} at once; retry when one has finished`,
      ),
    );
    return true;
  }
  if (session.stateless) {
    if (support === 'forbidden') return false;
    if (!declaresExtension(session)) {
      if (support === 'optional') return false;
      out.respond(missingExtension(idText));
      return true;
    }
    new TaskRun(session, id, idText, metaOf(params), out, newRecord(session, out, undefined)).start(
      tool,
      args,
    );
    return true;
  }
  const asked = isObject(params['task']);
  if (!asked && support !== 'required') return false;
  if (session.protocolVersion < TASKS_SINCE || support === 'forbidden' || !asked) {
    const why = !asked ? `must be called as a task (params.task)` : `cannot run as a task`;
    out.respond(errorMessage(idText, METHOD_NOT_FOUND, `Tool ${tool.name} ${why}`));
    return true;
  }
  const ttl = (params['task'] as JsonObject)['ttl'];
  new TaskRun(
    session,
    id,
    idText,
    metaOf(params),
    out,
    newRecord(session, out, typeof ttl === 'number' ? ttl : undefined),
  ).begin(tool, args);
  return true;
}

export function newRecord(
  session: Session,
  out: Outbound,
  askedTtlMs: number | undefined,
): TaskRecord {
  const settings = session.core.taskSettings;
  const now = new Date().toISOString();
  const ttl =
    askedTtlMs === undefined || askedTtlMs < 1
      ? settings.ttlMs
      : Math.min(Math.floor(askedTtlMs), settings.maxTtlMs);
  return {
    // 122 random bits: the id is all a 2026-07-28 client needs to reach its task.
    taskId: nodeCrypto().randomUUID(),
    owner: ownerOf(session, out),
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: ttl,
    pollIntervalMs: settings.pollIntervalMs,
  };
}
