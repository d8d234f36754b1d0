/**
 * What a task asks the client while it runs: 2026-07-28 answers arriving by `tasks/update`, and
 * 2025-11-25 server→client requests tagged with the task they belong to. Either keeps the task
 * `input_required` while something is unanswered.
 */
import type { JsonObject } from '../../api.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { isTerminal } from '../../server/task-store.js';
import { RELATED_TASK } from '../../server/task-wire.js';
import type { TaskRun } from './task-run.js';

/** A 2026-07-28 task's input request waiting for `tasks/update`. */
export interface PendingInput {
  readonly method: string;
  readonly resolve: (result: JsonObject) => void;
  readonly reject: (error: Error) => void;
}

/**
 * `tasks/update`: answers for keys this task is waiting on resolve them (an answer of the wrong
 * shape counts as none); other keys are ignored. The task is `working` again once none is left.
 */
export async function updateTaskInputs(run: TaskRun, responses: JsonObject): Promise<void> {
  const validators = await run.core.resultValidators();
  let answered = false;
  for (const [key, answer] of Object.entries(responses)) {
    const pending = run.inputs.get(key);
    if (pending === undefined || !isObject(answer)) continue;
    const validate = validators.get(pending.method);
    if (validate !== undefined && !validate(answer)) continue;
    run.inputs.delete(key);
    if (run.record.inputRequests !== undefined) delete run.record.inputRequests[key];
    pending.resolve(answer);
    answered = true;
  }
  if (!answered || isTerminal(run.record.status)) return;
  if (run.inputs.size === 0) run.transition('working', undefined);
  else {
    run.record.lastUpdatedAt = new Date().toISOString();
    await run.save();
  }
}

/**
 * 2025-11-25: a server→client request of the task, tagged with the task it belongs to; the task
 * is `input_required` while any is unanswered.
 */
export function statefulTaskRequest(
  run: TaskRun,
  params: JsonObject | undefined,
  send: (params: JsonObject) => Promise<JsonObject>,
): Promise<JsonObject> {
  const given = params?.['_meta'];
  const meta = isObject(given) ? given : {};
  const tagged: JsonObject = {
    ...(params ?? {}),
    _meta: { ...meta, [RELATED_TASK]: { taskId: run.record.taskId } },
  };
  if (run.clientRequests++ === 0 && !isTerminal(run.record.status))
    run.transition('input_required', 'Waiting for input from the client');
  const settle = (): void => {
    if (--run.clientRequests === 0 && run.record.status === 'input_required')
      run.transition('working', undefined);
  };
  const result = send(tagged);
  result.then(settle, settle);
  return result;
}
