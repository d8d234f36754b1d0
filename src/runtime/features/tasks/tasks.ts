/**
 * Tasks in both eras, on one handler API: a tool whose manifest entry says
 * `execution.taskSupport: optional | required` runs as a task when a 2025-11-25 client asks
 * (`params.task` on tools/call) or, in 2026-07-28, when the client declares the
 * `io.modelcontextprotocol/tasks` extension (the server directs it). This module decides that for
 * `tools/call` and answers `tasks/get`, `tasks/result` and `tasks/list` (2025-11-25),
 * `tasks/update` (2026-07-28) and `tasks/cancel` from the task store.
 */
import type { JsonObject } from '../../api.js';
import {
  INVALID_PARAMS,
  METHOD_NOT_FOUND,
  MISSING_CAPABILITY,
  TOO_MANY_REQUESTS,
  errorMessage,
  isObject,
  quote,
  resultMessage,
  type RequestId,
} from '../../protocol/jsonrpc.js';
import { ownerOf as authOwner } from '../../transports/http/http-auth.js';
import { nodeCrypto } from '../../protocol/lazy-crypto.js';
import { metaOf, stackOf, type MethodTable } from '../../server/method-common.js';
import type { Outbound } from '../../server/outbound.js';
import type { ServerCore, ToolEntry } from '../../server/server.js';
import type { Session } from '../../server/session.js';
import { isTerminal, type TaskRecord } from './task-store.js';
import { listTaskPage } from './task-list.js';
import { TaskRun, taskNotFound } from './task-run.js';
import { TASKS_EXTENSION, statefulTask, statelessTask, taskResultPayload } from './task-wire.js';

/** The first stateful revision with tasks. */
const TASKS_SINCE = '2025-11-25';

export function registerTasks(table: MethodTable): void {
  table.set('tasks/get', { handle: getTask, statelessOnly: false });
  table.set('tasks/cancel', { handle: cancelTask, statelessOnly: false });
  table.set('tasks/result', { handle: taskResult, statelessOnly: false });
  table.set('tasks/list', { handle: listTasks, statelessOnly: false });
  table.set('tasks/update', { handle: updateTask, statelessOnly: true });
}

const owners = new WeakMap<Session, string>();

/**
 * Whose tasks a caller sees: a stateful session's own; at 2026-07-28 those of the verified token's
 * owner (manifest `auth`: issuer and `sub`, see `ownerOf`), else every task (the id is the bearer secret).
 */
function ownerOf(session: Session, out: Outbound): string {
  if (session.stateless)
    return out.auth === undefined ? 'stateless' : `owner:${authOwner(out.auth)}`;
  let owner = owners.get(session);
  if (owner === undefined) {
    owner = `session:${session.id ?? nodeCrypto().randomUUID()}`;
    owners.set(session, owner);
  }
  return owner;
}

function declaresExtension(session: Session): boolean {
  const extensions = session.clientCapabilities['extensions'];
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]);
}

function missingExtension(idText: string): string {
  return errorMessage(
    idText,
    MISSING_CAPABILITY,
    `Missing required client capability: extension ${TASKS_EXTENSION}`,
    {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    },
  );
}

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

function newRecord(session: Session, out: Outbound, askedTtlMs: number | undefined): TaskRecord {
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

/**
 * The checks every tasks/* method shares: the era has the method, a 2026-07-28 client declared the
 * extension, `taskId` is a string. Answers and returns undefined when one fails.
 */
function checkedTaskId(
  session: Session,
  idText: string,
  params: JsonObject,
  out: Outbound,
  method: string,
): string | undefined {
  if (!session.stateless && (session.protocolVersion < TASKS_SINCE || !session.core.tasksOffered)) {
    out.respond(errorMessage(idText, METHOD_NOT_FOUND, `Method not found: ${method}`));
    return undefined;
  }
  if (session.stateless && !declaresExtension(session)) {
    out.respond(missingExtension(idText));
    return undefined;
  }
  const taskId = params['taskId'];
  if (typeof taskId !== 'string') {
    out.respond(
      errorMessage(idText, INVALID_PARAMS, `Invalid params for ${method}: taskId must be a string`),
    );
    return undefined;
  }
  return taskId;
}

/** Loads the task if the requester may see it; answers -32602 (unknown, expired or foreign, alike) otherwise. */
function withTask(
  session: Session,
  idText: string,
  taskId: string,
  out: Outbound,
  then: (record: TaskRecord) => void | Promise<void>,
): void {
  session.core.taskStore.load(taskId).then(
    async (record) => {
      if (record === undefined || record.owner !== ownerOf(session, out))
        out.respond(taskNotFound(idText, taskId));
      else await then(record);
    },
    (error: unknown) => {
      session.core.log(`Loading task ${quote(taskId)} failed: ${stackOf(error)}`);
      out.respond(errorMessage(idText, -32603, 'Internal error: the task store could not be read'));
    },
  );
}

function getTask(
  session: Session,
  _id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  const taskId = checkedTaskId(session, idText, params, out, 'tasks/get');
  if (taskId === undefined) return;
  withTask(session, idText, taskId, out, (record) => {
    const task = session.stateless ? statelessTask(record, true) : statefulTask(record);
    out.respond(resultMessage(idText, JSON.stringify(task)));
  });
}

function cancelTask(
  session: Session,
  _id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  const taskId = checkedTaskId(session, idText, params, out, 'tasks/cancel');
  if (taskId === undefined) return;
  withTask(session, idText, taskId, out, async (record) => {
    if (isTerminal(record.status)) {
      // 2026-07-28 acknowledges again; 2025-11-25 refuses to cancel a finished task.
      out.respond(
        session.stateless
          ? resultMessage(idText, '{}')
          : errorMessage(
              idText,
              INVALID_PARAMS,
              `Cannot cancel task: already in terminal status '${record.status}'`,
            ),
      );
      return;
    }
    const run = session.core.taskRuns.get(taskId);
    if (run !== undefined) {
      run.cancel();
      await run.save();
      record = run.record;
    } else {
      // Running on another process: the store says cancelled; that process sees it on its next
      // check and aborts the handler (task-cancel-watch.ts), and its finish keeps the terminal state.
      record.status = 'cancelled';
      record.statusMessage = 'The task was cancelled by request';
      record.lastUpdatedAt = new Date().toISOString();
      await session.core.taskStore.save(record);
    }
    out.respond(
      resultMessage(idText, session.stateless ? '{}' : JSON.stringify(statefulTask(record))),
    );
  });
}

function updateTask(
  session: Session,
  _id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  const taskId = checkedTaskId(session, idText, params, out, 'tasks/update');
  if (taskId === undefined) return;
  const responses = params['inputResponses'];
  if (!isObject(responses)) {
    out.respond(
      errorMessage(
        idText,
        INVALID_PARAMS,
        'Invalid params for tasks/update: inputResponses must be an object',
      ),
    );
    return;
  }
  withTask(session, idText, taskId, out, async (record) => {
    const run = session.core.taskRuns.get(taskId);
    if (record.status !== 'input_required' || run === undefined || !run.waitingForInput) {
      const why =
        run === undefined && record.status === 'input_required'
          ? 'it runs on another server process'
          : `its status is ${record.status}`;
      out.respond(
        errorMessage(
          idText,
          INVALID_PARAMS,
          `Task ${quote(taskId)} is not waiting for input here: ${why}`,
        ),
      );
      return;
    }
    await run.update(responses);
    out.respond(resultMessage(idText, '{}'));
  });
}

/** 2025-11-25: the underlying request's own answer, once the task has ended (waits until then). */
function taskResult(
  session: Session,
  _id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  const taskId = checkedTaskId(session, idText, params, out, 'tasks/result');
  if (taskId === undefined) return;
  const answer = (record: TaskRecord): void => {
    if (record.status === 'completed')
      out.respond(resultMessage(idText, taskResultPayload(record)));
    else if (record.status === 'failed' && record.error !== undefined) {
      out.respond(
        errorMessage(
          idText,
          Number(record.error['code']),
          String(record.error['message']),
          record.error['data'],
        ),
      );
    } else
      out.respond(
        errorMessage(
          idText,
          INVALID_PARAMS,
          `Task ${quote(taskId)} was ${record.status}: it has no result`,
        ),
      );
  };
  withTask(session, idText, taskId, out, (record) => {
    if (isTerminal(record.status)) return answer(record);
    const run = session.core.taskRuns.get(taskId);
    if (run !== undefined) run.wait(out, answer);
    else pollUntilDone(session.core, taskId, record.pollIntervalMs, answer);
  });
}

/** A task another process runs: its store record is read every poll interval until it ends. */
function pollUntilDone(
  core: ServerCore,
  taskId: string,
  intervalMs: number,
  done: (record: TaskRecord) => void,
): void {
  setTimeout(() => {
    core.taskStore.load(taskId).then(
      (record) => {
        if (record === undefined) return;
        if (isTerminal(record.status)) done(record);
        else pollUntilDone(core, taskId, intervalMs, done);
      },
      (error: unknown) => core.log(`Polling task ${quote(taskId)} failed: ${stackOf(error)}`),
    );
  }, intervalMs).unref();
}

/** 2025-11-25: the session's tasks, a page at a time (task-list.ts). */
function listTasks(
  session: Session,
  _id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  if (session.protocolVersion < TASKS_SINCE || !session.core.tasksOffered) {
    out.respond(errorMessage(idText, METHOD_NOT_FOUND, 'Method not found: tasks/list'));
    return;
  }
  listTaskPage(session, ownerOf(session, out), idText, params, out);
}
