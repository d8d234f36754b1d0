/**
 * The 2026-07-28 input-required flow on the client: a result with `resultType: "input_required"`
 * names what the server needs (`inputRequests`, by key); the client answers each from the app's
 * handlers and sends the same request again with `inputResponses` and the server's `requestState`.
 */
import type { JsonObject } from '../api.js';
import { McpError } from '../protocol/errors.js';
import { isObject, MISSING_CAPABILITY } from '../protocol/jsonrpc.js';
import { ToolError } from './errors.js';
import { answerServerRequest, type ClientHandlers } from './input-handlers.js';
import type { ClientTracing } from './tracing.js';
import { ELICITATION_CREATE } from '../protocol/methods.js';

/** Rounds of input-required answers before a request gives up. */
const MAX_INPUT_ROUNDS = 16;

/** Answers input requests (by key) from the handlers; a task's input requests too (tasks.ts). */
export async function answerInputRequests(
  handlers: ClientHandlers,
  requests: JsonObject,
  signal: AbortSignal | undefined,
  tracing?: ClientTracing,
): Promise<JsonObject> {
  const responses: JsonObject = {};
  for (const key of Object.keys(requests)) {
    const request = requests[key];
    if (!isObject(request) || typeof request['method'] !== 'string')
      throw new Error(`input request ${JSON.stringify(key)} is malformed`);
    const params = isObject(request['params']) ? request['params'] : {};
    const method = request['method'];
    const answer = (): Promise<JsonObject> =>
      answerServerRequest(handlers, method, params, signal ?? new AbortController().signal);
    // defineProperty: a key like `__proto__` stays an own property.
    Object.defineProperty(responses, key, {
      value: await (tracing === undefined ? answer() : tracing.serve(method, params, answer)),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return responses;
}

/** Sends `params` and, while the result requires input, answers it and sends the request again. */
export async function requestWithInputRounds(
  method: string,
  params: JsonObject,
  send: (params: JsonObject) => Promise<JsonObject>,
  answer: (requests: JsonObject) => Promise<JsonObject>,
): Promise<JsonObject> {
  let current = params;
  for (let round = 0; round < MAX_INPUT_ROUNDS; round++) {
    const result = await send(current);
    if (result['resultType'] !== 'input_required') return result;
    current = { ...current };
    delete current['inputResponses'];
    delete current['requestState'];
    if (isObject(result['inputRequests']))
      current['inputResponses'] = await answer(result['inputRequests']);
    if (typeof result['requestState'] === 'string')
      current['requestState'] = result['requestState'];
  }
  throw new Error(`${method}: the server still required input after ${MAX_INPUT_ROUNDS} rounds`);
}

/** 2025-11-25: the request cannot go on until the user completes URL elicitations (`data.elicitations`). */
export const URL_ELICITATION_REQUIRED = -32042;

/** Times a tool call is sent again after the user completed the URL elicitations it asked for. */
const MAX_URL_ROUNDS = 3;

/**
 * After a `tools/call` failed with `error`, settles what the server needs from the client before
 * the tool can run, the same way in both eras (the call's first send stays on the plain path):
 * - a 2025-11-25 -32042 (URL elicitation required): each elicitation goes to the `elicitation.url`
 *   handler, and once the user accepted them all the call is sent again (`resend`);
 * - a capability the client did not declare (-32021 at 2026-07-28, or a -32042 without an
 *   `elicitation.url` handler) rejects with `ToolError`, whose `requiredCapabilities` names it, as a
 *   2025-11-25 server's tool error (`isError`) does for the same refusal.
 * Anything else is rethrown.
 */
export async function recoverToolCall(
  tool: string,
  handlers: ClientHandlers,
  error: unknown,
  resend: () => Promise<JsonObject>,
  signal: AbortSignal | undefined,
): Promise<JsonObject> {
  for (let round = 0; ; round++) {
    if (!(error instanceof McpError)) throw error;
    if (error.code === MISSING_CAPABILITY) {
      const data = isObject(error.data) ? error.data['requiredCapabilities'] : undefined;
      throw capabilityError(tool, error, isObject(data) ? data : {});
    }
    if (error.code !== URL_ELICITATION_REQUIRED || round >= MAX_URL_ROUNDS) throw error;
    if (urlHandler(handlers) === undefined)
      throw capabilityError(tool, error, { elicitation: { url: {} } });
    const data = isObject(error.data) ? error.data['elicitations'] : undefined;
    const elicitations = Array.isArray(data) ? data.filter(isObject) : [];
    if (elicitations.length === 0) throw error;
    for (const params of elicitations) {
      const answer = await answerServerRequest(
        handlers,
        ELICITATION_CREATE,
        { ...params, mode: 'url' },
        signal ?? new AbortController().signal,
      );
      // Declined or cancelled: the server's refusal is the answer.
      if (answer['action'] !== 'accept') throw error;
    }
    try {
      return await resend();
    } catch (next) {
      error = next;
    }
  }
}

function urlHandler(handlers: ClientHandlers): unknown {
  const elicitation = handlers.elicitation;
  return elicitation === undefined || typeof elicitation === 'function'
    ? undefined
    : elicitation.url;
}

/** The refusal as a tool error: what a 2025-11-25 server answers with `isError` for the same case. */
function capabilityError(tool: string, error: McpError, required: JsonObject): ToolError {
  const result = { content: [{ type: 'text', text: error.message }], isError: true };
  return new ToolError(tool, result, required);
}
