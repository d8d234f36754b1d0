/**
 * Server→client requests of a stateful session (elicitation/create, sampling/createMessage,
 * roots/list): sent on the outbound of the request they belong to, matched to the client's answer
 * by id, checked against the result validators, and cancelled with it. A stateless session asks
 * through input-required results instead (input-requests.ts).
 */
import type { InputOptions, JsonObject, Validator } from '../../api.js';
import type { Context } from '../../server/context.js';
import { McpError } from '../../protocol/errors.js';
import {
  INTERNAL_ERROR,
  describeIssues,
  idJson,
  isObject,
  jsonOrUndefined,
  notificationMessage,
  quote,
  type RequestId,
} from '../../protocol/jsonrpc.js';
import { inputRefusal } from './input-capabilities.js';
import { requestInput } from './input-requests.js';
import { statefulTaskRequest } from '../tasks/task-inputs.js';
import { STATE_CLOSED } from '../../server/lifecycle.js';
import type { Session } from '../../server/session.js';
import { CANCELLED } from '../../protocol/methods.js';

const ELICITATION_SINCE = '2025-06-18';

/** A request sent to the client, waiting for its answer. */
export interface PendingClientRequest {
  readonly method: string;
  readonly context: Context;
  /** Loading starts when the request is sent, so the table is usually ready when the answer comes. */
  readonly validators: Promise<ReadonlyMap<string, Validator<unknown>>>;
  readonly resolve: (result: JsonObject) => void;
  readonly reject: (error: Error) => void;
}

/** @internal Sends a server→client request on the context's outbound and waits for the answer. */
export function requestClient(
  session: Session,
  context: Context,
  method: string,
  capability: string,
  params: JsonObject | undefined,
  options: InputOptions | undefined,
): Promise<JsonObject> {
  // Below a declared capability: the elicitation mode, sampling tools and context (input-capabilities.ts).
  if (isObject(session.clientCapabilities[capability])) {
    const refused = inputRefusal(
      method,
      params,
      session.clientCapabilities,
      session.protocolVersion,
    );
    if (refused !== undefined) return Promise.reject(refused);
  }
  const task = context.task;
  if (task !== undefined && session.stateless && task.takesInput(options))
    return task.requestInput(method, capability, params ?? {}, options?.key);
  if (session.stateless)
    return requestInput(session, context, method, capability, params ?? {}, options?.key);
  if (task !== undefined)
    return statefulTaskRequest(task, params, (tagged) =>
      sendToClient(session, context, method, capability, tagged),
    );
  return sendToClient(session, context, method, capability, params);
}

function sendToClient(
  session: Session,
  context: Context,
  method: string,
  capability: string,
  params: JsonObject | undefined,
): Promise<JsonObject> {
  const refusal = clientRequestRefusal(session, context, method, capability);
  if (refusal !== undefined) return Promise.reject(new Error(refusal));
  const id = (session.core.bus?.idBase ?? 0) + ++session.lastOutgoingId;
  const message: JsonObject = { jsonrpc: '2.0', id, method };
  if (params !== undefined) message['params'] = params;
  const text = jsonOrUndefined(message);
  if (text === undefined)
    return Promise.reject(new Error(`${method} params must be serializable as JSON`));
  return new Promise<JsonObject>((resolve, reject) => {
    (session.pendingClient ??= new Map()).set(id, {
      method,
      context,
      validators: session.core.resultValidators(),
      resolve,
      reject,
    });
    (context.outgoing ??= []).push(id);
    context.out.emit(text);
  });
}

function clientRequestRefusal(
  session: Session,
  context: Context,
  method: string,
  capability: string,
): string | undefined {
  if (session.state === STATE_CLOSED) return `${method}: the connection to the client is closed`;
  if (!isObject(session.clientCapabilities[capability])) {
    return `${method}: the client did not declare the ${capability} capability`;
  }
  if (capability === 'elicitation' && session.protocolVersion < ELICITATION_SINCE) {
    return `${method}: elicitation needs protocol revision ${ELICITATION_SINCE} or later (negotiated ${session.protocolVersion})`;
  }
  if (context.done || context.cancelled)
    return `${method}: the request it belongs to has already finished`;
  if (!context.out.canEmit) {
    return `${method}: the client cannot receive server requests on this HTTP request (it does not accept text/event-stream)`;
  }
  return undefined;
}

export function clientResponse(session: Session, id: RequestId, message: JsonObject): void {
  const pending = typeof id === 'number' ? session.pendingClient?.get(id) : undefined;
  if (pending === undefined && session.id !== undefined && session.core.bus !== undefined) {
    // Sent by another process sharing the session: the answer goes on to it (message-bus.ts).
    session.core.bus.forward(session.id, message);
    return;
  }
  if (pending === undefined) {
    session.core.log(`Ignoring a response to unknown request id ${quote(idJson(id))}`);
    return;
  }
  session.pendingClient!.delete(id as number);
  const error = message['error'];
  if (error !== undefined) {
    const body = isObject(error) ? error : {};
    const code = typeof body['code'] === 'number' ? body['code'] : INTERNAL_ERROR;
    const text =
      typeof body['message'] === 'string' ? body['message'] : 'The client answered with an error';
    pending.reject(new McpError(code, text, body['data']));
    return;
  }
  const result = message['result'];
  if (!isObject(result)) {
    pending.reject(new Error(`Invalid ${pending.method} result from the client: not an object`));
    return;
  }
  pending.validators.then(
    (validators) => {
      const validate = validators.get(pending.method);
      if (validate !== undefined && !validate(result)) {
        pending.reject(
          new Error(
            `Invalid ${pending.method} result from the client: ${describeIssues(validate.errors)}`,
          ),
        );
      } else {
        pending.resolve(result);
      }
    },
    (error: unknown) =>
      pending.reject(new Error(`Could not load the result validators: ${String(error)}`)),
  );
}

/** @internal Cancels the server→client requests a cancelled request was waiting for. */
export function cancelOutgoing(session: Session, context: Context, reason: string): void {
  if (context.outgoing === undefined) return;
  for (const id of context.outgoing) {
    const pending = session.pendingClient?.get(id);
    if (pending === undefined) continue;
    session.pendingClient!.delete(id);
    context.out.emit(notificationMessage(CANCELLED, JSON.stringify({ requestId: id, reason })));
    pending.reject(new Error(`${pending.method} cancelled: ${reason}`));
  }
  context.outgoing = undefined;
}
