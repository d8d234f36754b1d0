/**
 * The 2026-07-28 input-required flow on the client: a result with `resultType: "input_required"`
 * names what the server needs (`inputRequests`, by key); the client answers each from the app's
 * handlers and sends the same request again with `inputResponses` and the server's `requestState`.
 */
import type { JsonObject } from '../api.js';
import { isObject } from '../jsonrpc.js';
import { answerServerRequest, type ClientHandlers } from './input-handlers.js';

/** Rounds of input-required answers before a request gives up. */
const MAX_INPUT_ROUNDS = 16;

/** Answers input requests (by key) from the handlers; a task's input requests too (tasks.ts). */
export async function answerInputRequests(
  handlers: ClientHandlers,
  requests: JsonObject,
  signal: AbortSignal | undefined,
): Promise<JsonObject> {
  const responses: JsonObject = {};
  for (const key of Object.keys(requests)) {
    const request = requests[key];
    if (!isObject(request) || typeof request['method'] !== 'string')
      throw new Error(`input request ${JSON.stringify(key)} is malformed`);
    const params = isObject(request['params']) ? request['params'] : {};
    // defineProperty: a key like `__proto__` stays an own property.
    Object.defineProperty(responses, key, {
      value: await answerServerRequest(
        handlers,
        request['method'],
        params,
        signal ?? new AbortController().signal,
      ),
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
