/**
 * What the method modules share: the shape of a method handler and its dispatch-table entry, the
 * run of a non-tool handler (result or JSON-RPC error) and small readers of params.
 */
import type { JsonObject, Validator } from '../api.js';
import type { Context } from './context.js';
import { McpError } from '../protocol/errors.js';
import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  describeIssues,
  errorMessage,
  isObject,
  resultMessage,
  type RequestId,
} from '../protocol/jsonrpc.js';
import { METHOD_INFO } from '../protocol/methods.js';
import type { Outbound } from './outbound.js';
import type { Session } from './session.js';

/** Answers one request (params already checked by the method's validator) on `out`. */
export type MethodHandler = (
  session: Session,
  id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
) => void;

export interface MethodEntry {
  readonly handle: MethodHandler;
  /** A 2026-07-28 method (server/discover, subscriptions/listen): unknown to a stateful session, and it carries no input state. */
  readonly statelessOnly: boolean;
}

/** The one dispatch table; each method module adds its methods to it. */
export type MethodTable = Map<string, MethodEntry>;

/** Adds a feature's handler of `method`; whether only 2026-07-28 has it comes from the method table. */
export function register(table: MethodTable, method: string, handle: MethodHandler): void {
  const info = METHOD_INFO.get(method);
  if (info === undefined) throw new Error(`${method} is not in the method table`);
  table.set(method, { handle, statelessOnly: !info.eras.includes('stateful') });
}

export const RESOLVED: Promise<void> = Promise.resolve();
export const EMPTY_PARAMS: JsonObject = Object.freeze({});
/** An empty map to read (`Session.inFlight` while nothing runs): shared, never written. */
export const NO_ENTRIES: ReadonlyMap<never, never> = new Map<never, never>();

/** Runs a non-tool handler: its result becomes the JSON-RPC result, a throw a JSON-RPC error. */
export function invoke(
  session: Session,
  context: Context,
  call: () => unknown,
  encode: (value: unknown) => string,
): void {
  let value: unknown;
  try {
    value = call();
  } catch (error) {
    handlerFailed(session, context, error);
    return;
  }
  if (isThenable(value)) {
    session.track(context);
    value.then(
      (resolved) => handlerFinished(session, context, resolved, encode),
      (error: unknown) => handlerFailed(session, context, error),
    );
  } else {
    handlerFinished(session, context, value, encode);
  }
}

function handlerFinished(
  session: Session,
  context: Context,
  value: unknown,
  encode: (value: unknown) => string,
): void {
  if (!session.settle(context)) return;
  let json: string;
  try {
    json = encode(value);
  } catch (error) {
    session.core.log(`A handler returned an invalid result: ${stackOf(error)}`);
    context.out.respond(
      errorMessage(
        context.idText,
        INTERNAL_ERROR,
        error instanceof Error ? error.message : 'Internal error',
      ),
    );
    return;
  }
  context.out.respond(resultMessage(context.idText, json));
}

function handlerFailed(session: Session, context: Context, error: unknown): void {
  if (session.core.features.answerInputError(session, context, error)) return;
  if (!session.settle(context)) return;
  if (error instanceof McpError) {
    context.out.respond(errorMessage(context.idText, error.code, error.message, error.data));
    return;
  }
  session.core.log(`A handler threw: ${stackOf(error)}`);
  const message = error instanceof Error && error.message !== '' ? error.message : 'Internal error';
  context.out.respond(errorMessage(context.idText, INTERNAL_ERROR, message));
}

export function invalidParams(
  idText: string,
  method: string,
  validate: Validator<unknown>,
): string {
  return errorMessage(
    idText,
    INVALID_PARAMS,
    `Invalid params for ${method}: ${describeIssues(validate.errors)}`,
  );
}

export function paramsOf(message: JsonObject): JsonObject {
  const params = message['params'];
  return isObject(params) ? params : EMPTY_PARAMS;
}

export function metaOf(params: JsonObject): JsonObject | undefined {
  const meta = params['_meta'];
  return isObject(meta) ? meta : undefined;
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

export function stackOf(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

export function toolErrorMessage(idText: string, text: string): string {
  return resultMessage(
    idText,
    '{"content":[{"type":"text","text":' + JSON.stringify(text) + '}],"isError":true}',
  );
}
