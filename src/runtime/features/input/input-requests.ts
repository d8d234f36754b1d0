/// <reference types="node" />
/**
 * The stateless revision 2026-07-28 asks the client for input (elicitation, sampling, roots) with
 * an input-required result instead of a server→client request: the handler is parked, the result
 * carries every input it asked for plus a signed `requestState`, and the client's retry brings the
 * answers back in `inputResponses`.
 */
import type { JsonObject, Validator } from '../../api.js';
import type { Context } from '../../server/context.js';
import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  MISSING_CAPABILITY,
  errorMessage,
  isObject,
  jsonOrUndefined,
  resultMessage,
} from '../../protocol/jsonrpc.js';
import type { Outbound } from '../../server/outbound.js';
import type { Session } from '../../server/session.js';
import { openState, sealState, type InputState } from '../../server/input-state.js';

import { NO_ANSWERS } from '../../server/features.js';

/**
 * A handler waiting for input it will get in a later request: a promise that never settles, and a
 * new one each time. Nothing else holds it, so the parked handler (its context, session and HTTP
 * exchange) is garbage once the result is sent. One shared promise would hold every handler that
 * ever awaited it in its reaction list, for good.
 */
function parked(): Promise<never> {
  return new Promise<never>(() => undefined);
}

/**
 * 2026-07-28: an answer of the wrong shape in `inputResponses` counts as no answer (the handler asks
 * again), so a message that fails its validator is judged once more with the answers left out.
 */
export function validWithoutAnswers(validate: Validator<unknown>, message: JsonObject): boolean {
  const params = message['params'];
  if (!isObject(params) || !isObject(params['inputResponses'])) return false;
  return validate({ ...message, params: { ...params, inputResponses: {} } });
}

/**
 * Reads `requestState` (signed by this server; refused when altered or meant for another
 * request) and `inputResponses` into the answers the handler's input requests resolve from.
 * Answers with -32602 and returns false when either is malformed.
 */
export function openInputState(
  session: Session,
  idText: string,
  method: string,
  params: JsonObject,
  out: Outbound,
): boolean {
  session.inputTarget = `${method}:${String(params['name'] ?? params['uri'] ?? '')}`;
  const responses = params['inputResponses'];
  const sealed = params['requestState'];
  if (responses !== undefined && !isObject(responses)) {
    out.respond(
      errorMessage(idText, INVALID_PARAMS, 'Invalid params: inputResponses must be an object'),
    );
    return false;
  }
  if (sealed !== undefined) {
    const state =
      typeof sealed === 'string'
        ? openState(sealed, session.core.stateSecret, session.inputTarget)
        : undefined;
    if (state === undefined) {
      out.respond(
        errorMessage(
          idText,
          INVALID_PARAMS,
          'Invalid params: requestState was not issued by this server for this request',
        ),
      );
      return false;
    }
    // Without a prototype, keys such as `__proto__` or `constructor` are plain answer keys.
    session.answers = Object.assign(
      Object.create(null) as Record<string, JsonObject>,
      state.answers,
    );
    session.inputRound = state.round;
  }
  if (responses !== undefined) {
    if (session.answers === NO_ANSWERS)
      session.answers = Object.create(null) as Record<string, JsonObject>;
    for (const [key, value] of Object.entries(responses)) {
      if (isObject(value)) session.answers[key] = value;
    }
  }
  return true;
}

export function requestInput(
  session: Session,
  context: Context,
  method: string,
  capability: string,
  params: JsonObject,
  key: string | undefined,
): Promise<JsonObject> {
  if (context.done || context.cancelled)
    return Promise.reject(new Error(`${method}: the request it belongs to has already finished`));
  if (!isObject(session.clientCapabilities[capability])) {
    // The request cannot be served without it: -32021 (HTTP 400), whatever the handler does next.
    if (session.settle(context)) {
      context.out.respond(
        errorMessage(
          context.idText,
          MISSING_CAPABILITY,
          `Missing required client capability: ${capability}`,
          {
            requiredCapabilities: { [capability]: {} },
          },
        ),
      );
    }
    return parked();
  }
  const inputKey = key ?? `${capability}-${++context.inputCount}`;
  const answer = Object.hasOwn(session.answers, inputKey) ? session.answers[inputKey] : undefined;
  if (answer === undefined) return askInput(session, context, inputKey, method, params);
  return session.core.resultValidators().then((validators) => {
    const validate = validators.get(method);
    if (validate === undefined || validate(answer)) return answer;
    // An answer of the wrong shape counts as none: ask again.
    delete session.answers[inputKey];
    return askInput(session, context, inputKey, method, params);
  });
}

/** Parks the handler (its promise never settles) and answers with every input it asked for. */
function askInput(
  session: Session,
  context: Context,
  key: string,
  method: string,
  params: JsonObject,
): Promise<never> {
  const first = session.pendingInputs === undefined;
  (session.pendingInputs ??= {})[key] = { method, params };
  // After the handler's synchronous run and promise reactions, so parallel asks share one result.
  if (first) setImmediate(() => flushInputs(session, context));
  return parked();
}

function flushInputs(session: Session, context: Context): void {
  const inputRequests = session.pendingInputs;
  session.pendingInputs = undefined;
  if (inputRequests === undefined || !session.settle(context)) return;
  const state: InputState = {
    target: session.inputTarget,
    round: session.inputRound + 1,
    answers: session.answers,
  };
  const json = jsonOrUndefined(inputRequests);
  if (json === undefined) {
    context.out.respond(
      errorMessage(context.idText, INTERNAL_ERROR, 'The input request params are not JSON'),
    );
    return;
  }
  context.out.respond(
    resultMessage(
      context.idText,
      '{"resultType":"input_required","inputRequests":' +
        json +
        ',"requestState":' +
        JSON.stringify(sealState(state, session.core.stateSecret)) +
        '}',
    ),
  );
}
