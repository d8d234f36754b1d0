/** completion/complete: the server's completion handler, its values capped at 100 (then `hasMore`). */
import type { JsonObject } from './api.js';
import { Context } from './context.js';
import { isObject, resultMessage, type RequestId } from './jsonrpc.js';
import { invoke, metaOf, type MethodTable } from './method-common.js';
import type { Outbound } from './outbound.js';
import type { Session } from './session.js';

const MAX_COMPLETION_VALUES = 100;

export function registerCompletion(table: MethodTable): void {
  table.set('completion/complete', { handle: complete, statelessOnly: false });
}

function complete(session: Session, id: RequestId, idText: string, params: JsonObject, out: Outbound): void {
  const handler = session.core.handlers.complete;
  if (handler === undefined) {
    out.respond(resultMessage(idText, '{"completion":{"values":[]}}'));
    return;
  }
  const context = new Context(session, id, idText, metaOf(params), out);
  invoke(session, context, () => handler(params, context), completionResult);
}

function completionResult(value: unknown): string {
  if (!isObject(value) || !Array.isArray(value['values'])) throw new Error('The completion handler returned no values array');
  const values = value['values'] as unknown[];
  const completion: JsonObject = { values: values.slice(0, MAX_COMPLETION_VALUES) };
  if (value['total'] !== undefined) completion['total'] = value['total'];
  if (value['hasMore'] !== undefined || values.length > MAX_COMPLETION_VALUES) {
    completion['hasMore'] = values.length > MAX_COMPLETION_VALUES || value['hasMore'] === true;
  }
  return JSON.stringify({ completion });
}

