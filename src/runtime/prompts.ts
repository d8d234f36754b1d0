/** Prompts: the list pages and prompts/get (a known name and every required argument, then the handler). */
import type { JsonObject } from './api.js';
import { Context } from './context.js';
import { INVALID_PARAMS, errorMessage, isObject, quoteValue, type RequestId } from './jsonrpc.js';
import { invoke, listPage, metaOf, type MethodTable } from './method-common.js';
import type { Outbound } from './outbound.js';
import type { Session } from './session.js';

export function registerPrompts(table: MethodTable): void {
  table.set('prompts/list', { handle: listPrompts, statelessOnly: false });
  table.set('prompts/get', { handle: getPrompt, statelessOnly: false });
}

function listPrompts(session: Session, _id: RequestId, idText: string, params: JsonObject, out: Outbound): void {
  listPage(session.core.promptPages, idText, params, out);
}

function getPrompt(session: Session, id: RequestId, idText: string, params: JsonObject, out: Outbound): void {
  const name = params['name'];
  const prompt = typeof name === 'string' ? session.core.prompts.get(name) : undefined;
  if (prompt === undefined) {
    out.respond(errorMessage(idText, INVALID_PARAMS, `Unknown prompt: ${quoteValue(name)}`));
    return;
  }
  const args = isObject(params['arguments']) ? params['arguments'] : {};
  for (const required of prompt.requiredArguments) {
    if (args[required] === undefined) {
      out.respond(errorMessage(idText, INVALID_PARAMS, `Missing required argument ${required} for prompt ${quoteValue(name)}`));
      return;
    }
  }
  const context = new Context(session, id, idText, metaOf(params), out);
  invoke(session, context, () => prompt.handler(args, context), promptResult);
}

function promptResult(value: unknown): string {
  if (!isObject(value) || !Array.isArray(value['messages'])) throw new Error('The prompt handler returned no messages array');
  return JSON.stringify(value);
}

