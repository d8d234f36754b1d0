/** Prompts: the list pages and prompts/get (a known name and every required argument, then the handler). */
import type { JsonObject } from '../../api.js';
import { Context } from '../../server/context.js';
import {
  INVALID_PARAMS,
  errorMessage,
  isObject,
  quoteValue,
  type RequestId,
} from '../../protocol/jsonrpc.js';
import { listPage } from '../../server/lists.js';
import { invoke, metaOf, register, type MethodTable } from '../../server/method-common.js';
import type { Outbound } from '../../server/outbound.js';
import type { Session } from '../../server/session.js';
import { PROMPTS_GET, PROMPTS_LIST } from '../../protocol/methods.js';

export function registerPrompts(table: MethodTable): void {
  register(table, PROMPTS_LIST, listPrompts);
  register(table, PROMPTS_GET, getPrompt);
}

/** Disabled and filtered-out prompts are left out (lists.ts). */
function listPrompts(
  session: Session,
  id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  const state = session.core.promptList;
  if (!state.restricted) {
    listPage(session.core.promptPages, PROMPTS_LIST, idText, params, out);
    return;
  }
  let context: Context | undefined;
  const contextOf = (): Context =>
    (context ??= new Context(session, id, idText, metaOf(params), out));
  listPage(
    session.core.promptPages,
    PROMPTS_LIST,
    idText,
    params,
    out,
    (prompt) => state.refusal(prompt.name as string, contextOf) === undefined,
  );
}

function getPrompt(
  session: Session,
  id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  const name = params['name'];
  const prompt = typeof name === 'string' ? session.core.prompts.get(name) : undefined;
  if (prompt === undefined) {
    out.respond(errorMessage(idText, INVALID_PARAMS, `Unknown prompt: ${quoteValue(name)}`));
    return;
  }
  const context = new Context(session, id, idText, metaOf(params), out);
  const refused = session.core.promptList.restricted
    ? session.core.promptList.refusal(name as string, () => context)
    : undefined;
  if (refused !== undefined) {
    out.respond(errorMessage(idText, INVALID_PARAMS, `Prompt ${quoteValue(name)} ${refused}`));
    return;
  }
  const args = isObject(params['arguments']) ? params['arguments'] : {};
  for (const required of prompt.requiredArguments) {
    if (args[required] === undefined) {
      out.respond(
        errorMessage(
          idText,
          INVALID_PARAMS,
          `Missing required argument ${required} for prompt ${quoteValue(name)}`,
        ),
      );
      return;
    }
  }
  invoke(session, context, () => prompt.handler(args, context), promptResult);
}

function promptResult(value: unknown): string {
  if (!isObject(value) || !Array.isArray(value['messages']))
    throw new Error('The prompt handler returned no messages array');
  return JSON.stringify(value);
}
