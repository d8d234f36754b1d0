/**
 * Cancellation: notifications/cancelled from the client (and the check of notifications/initialized,
 * the other client notification the server reads), and the handler timeout that cancels a request
 * and answers it with an error.
 */
import type { JsonObject } from '../api.js';
import type { Context } from './context.js';
import { INTERNAL_ERROR, describeIssues, errorMessage, isRequestId } from '../protocol/jsonrpc.js';
import { paramsOf, toolErrorMessage } from './method-common.js';
import type { Session } from './session.js';
import { CANCELLED, INITIALIZED } from '../protocol/methods.js';

/**
 * The validator table a notification waits for, behind the requests that wait for it already
 * (dispatch.ts): their order holds, so a request it cancels is in flight by then. A 2026-07-28
 * request waits for its own table, which may load after the one the notification is checked with.
 */
function tableToWaitFor(session: Session): Promise<void> | undefined {
  const core = session.core;
  if (core.validators === undefined) return core.loadRequestValidators();
  if (session.stateless && core.statelessValidators === undefined)
    return core.loadStatelessValidators();
  return undefined;
}

export function notification(
  session: Session,
  method: string,
  message: JsonObject,
  forwarded = false,
): void {
  if (method !== CANCELLED && method !== INITIALIZED) return;
  const waiting = tableToWaitFor(session);
  if (waiting !== undefined) {
    waiting.then(
      () => notification(session, method, message, forwarded),
      (error: unknown) =>
        session.core.log(
          `Loading the request validators failed, ${method} ignored: ${String(error)}`,
        ),
    );
    return;
  }
  const validate = session.core.validators?.get(method);
  if (validate !== undefined && !validate(message)) {
    session.core.log(
      `Ignoring an invalid ${method} notification: ${describeIssues(validate.errors)}`,
    );
    return;
  }
  // Only checked: requests are served from the initialize response on, initialized or not.
  if (method === INITIALIZED) return;
  const params = paramsOf(message);
  const requestId = params['requestId'];
  if (!isRequestId(requestId)) return;
  const reason = params['reason'];
  const context = session.inFlight.get(requestId);
  if (context !== undefined)
    context.cancel(typeof reason === 'string' ? reason : 'Cancelled by the client');
  // Without affinity the request may run on another process: it gets the notification there.
  else if (!forwarded && session.id !== undefined) session.core.bus?.forward(session.id, message);
}

/**
 * `limits.handlerTimeoutMs` passed: the handler is cancelled and its request answered with an error.
 * @internal
 */
export function expire(session: Session, context: Context): void {
  if (context.done || context.cancelled) return;
  const reason = `did not finish within ${session.core.limits.handlerTimeoutMs} ms`;
  context.cancel(`The request timed out: the handler ${reason}`, true);
  session.settle(context);
  const name = context.toolName;
  session.core.log(
    `${name === undefined ? 'A handler' : `Tool ${name}`} ${reason}; its request was answered with an error`,
  );
  context.out.respond(
    name === undefined
      ? errorMessage(context.idText, INTERNAL_ERROR, `Request timed out: the handler ${reason}`)
      : toolErrorMessage(context.idText, `Tool ${name} ${reason}`),
  );
}
