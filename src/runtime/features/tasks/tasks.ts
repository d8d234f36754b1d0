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
  errorMessage,
  isObject,
  quote,
  resultMessage,
  type RequestId,
} from '../../protocol/jsonrpc.js';
import { stackOf, register, type MethodTable } from '../../server/method-common.js';
import type { Outbound } from '../../server/outbound.js';
import type { ServerCore } from '../../server/server.js';
import type { Session } from '../../server/session.js';
import type { TaskRun } from './task-run.js';
import { isTerminal, type TaskRecord } from '../../server/task-store.js';
import { listTaskPage } from './task-list.js';
import { watchTaskMail } from './task-mail.js';
import { TASK_CANCEL, TASK_UPDATE } from './task-cancel-watch.js';
import { updateTaskInputs } from './task-inputs.js';
import { saveRunRecord } from './task-save.js';
import { knownRecord, rememberEnded } from './task-ended.js';
import { TASKS_SINCE, checkedTaskId, ownerOf } from './task-access.js';
import {
  statefulTask,
  statelessTask,
  taskResultPayload,
  taskNotFound,
} from '../../server/task-wire.js';
import {
  TASKS_CANCEL,
  TASKS_GET,
  TASKS_LIST,
  TASKS_RESULT,
  TASKS_UPDATE,
} from '../../protocol/methods.js';

export function registerTasks(table: MethodTable): void {
  register(table, TASKS_GET, getTask);
  register(table, TASKS_CANCEL, cancelTask);
  register(table, TASKS_RESULT, taskResult);
  register(table, TASKS_LIST, listTasks);
  register(table, TASKS_UPDATE, updateTask);
}

/** Loads the task if the requester may see it; answers -32602 (unknown, expired or foreign, alike) otherwise. */
function withTask(
  session: Session,
  idText: string,
  taskId: string,
  out: Outbound,
  then: (record: TaskRecord) => void | Promise<void>,
): void {
  // A task running here answers from its last save, which is what the store holds, and one that
  // ended from its end: no round trip (task-ended.ts). Another process's cancellation reaches a
  // run here at once on the bus, else on its next check.
  const known = knownRecord(session.core, taskId);
  const loaded = known !== undefined ? Promise.resolve(known) : session.core.taskStore.load(taskId);
  loaded.then(
    async (record) => {
      if (known === undefined && record !== undefined) rememberEnded(session.core, record);
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
  const taskId = checkedTaskId(session, idText, params, out, TASKS_GET);
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
  const taskId = checkedTaskId(session, idText, params, out, TASKS_CANCEL);
  if (taskId === undefined) return;
  withTask(session, idText, taskId, out, async (record) => {
    const run = session.core.taskRuns.get(taskId);
    const after = isTerminal(record.status) ? record : await cancelled(session, run, record);
    if (session.stateless) {
      out.respond(resultMessage(idText, '{}')); // 2026-07-28 acknowledges, even a finished task
    } else if (after !== record && after.status === 'cancelled') {
      out.respond(resultMessage(idText, JSON.stringify(statefulTask(after))));
    } else {
      out.respond(
        errorMessage(
          idText,
          INVALID_PARAMS,
          `Cannot cancel task: already in terminal status '${after.status}'`,
        ),
      );
    }
  });
}

/** Cancels a task still running: the record after, cancelled, or ended otherwise if it ended first. */
async function cancelled(
  session: Session,
  run: TaskRun | undefined,
  record: TaskRecord,
): Promise<TaskRecord> {
  if (run !== undefined) {
    run.cancel();
    await run.saving;
    return run.record;
  }
  // Running on another process: the store says cancelled (unless it ended meanwhile: that stands,
  // task-save.ts). That process aborts the handler on the bus message, else on its next check
  // (task-cancel-watch.ts), and its own saves can no longer undo the cancellation.
  const cancelling: TaskRecord = {
    ...record,
    status: 'cancelled',
    statusMessage: 'The task was cancelled by request',
    lastUpdatedAt: new Date().toISOString(),
  };
  const ended = await saveRunRecord(session.core.taskStore, cancelling);
  if (ended === undefined) session.core.bus?.send(TASK_CANCEL, { t: record.taskId });
  return ended ?? cancelling;
}

function updateTask(
  session: Session,
  _id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  const taskId = checkedTaskId(session, idText, params, out, TASKS_UPDATE);
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
    const bus = session.core.bus;
    if (run === undefined && record.status === 'input_required' && bus !== undefined) {
      // Running on another process: the answers go there on the bus (task-cancel-watch.ts).
      bus.send(TASK_UPDATE, { t: taskId, r: responses });
      out.respond(resultMessage(idText, '{}'));
      return;
    }
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
    await updateTaskInputs(run, responses);
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
  const taskId = checkedTaskId(session, idText, params, out, TASKS_RESULT);
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
    const core = session.core;
    // Without affinity, what the task said may wait in its mailbox: it goes first (task-mail.ts).
    const mail =
      core.bus === undefined ? undefined : watchTaskMail(core.bus, taskId, out, core.log);
    const done = (ended: TaskRecord): void => {
      if (mail === undefined) answer(ended);
      else void mail.finish().then(() => answer(ended));
    };
    if (isTerminal(record.status)) return done(record);
    const run = core.taskRuns.get(taskId);
    if (run !== undefined) run.wait(out, done);
    else pollUntilDone(core, taskId, record.pollIntervalMs, done);
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
  }, intervalMs).unref?.();
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
