/**
 * One request through the dispatcher: the session's checks, the validators, then the handler the
 * features registered for the method (server/features.ts). Both eras come through here.
 */
import type { JsonObject } from '../api.js';
import {
  INTERNAL_ERROR,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  TOO_MANY_REQUESTS,
  errorMessage,
  idJson,
  quote,
  type RequestId,
} from '../protocol/jsonrpc.js';
import { INITIALIZE, PING } from '../protocol/methods.js';
import { STATE_NEW, initialize } from './lifecycle.js';
import { invalidParams, paramsOf, stackOf } from './method-common.js';
import type { Outbound } from './outbound.js';
import type { Session } from './session.js';
import { TableWaiters } from './table-waiters.js';

/**
 * The checks every request passes (initialization, duplicate ids, limits, the method's validator),
 * then the method's handler from the features' table. The eras differ only in the input state a
 * 2026-07-28 request opens.
 */
export function dispatchRequest(
  session: Session,
  method: string,
  id: RequestId,
  message: JsonObject,
  out: Outbound,
): void {
  const idText = idJson(id);
  try {
    if (method === INITIALIZE) {
      initialize(session, idText, message, out);
      return;
    }
    if (session.state === STATE_NEW && method !== PING) {
      out.respond(
        errorMessage(
          idText,
          INVALID_REQUEST,
          'Server not initialized: the first request must be initialize',
        ),
      );
      return;
    }
    if (session.inFlight.has(id)) {
      // Answers are matched by id: a second request with the id of a running one could not be told apart.
      out.respond(
        errorMessage(
          idText,
          INVALID_REQUEST,
          `Invalid Request: id ${quote(idText)} is already used by a request in flight`,
        ),
      );
      return;
    }
    if (session.inFlight.size >= session.core.limits.maxInFlight && method !== PING) {
      out.respond(
        errorMessage(
          idText,
          TOO_MANY_REQUESTS,
          `Too many requests in flight: at most ${session.core.limits.maxInFlight} at once; retry when one has finished`,
        ),
      );
      return;
    }
    // A 2026-07-28 method was checked by `checkStateless` before this session was made.
    if (!session.stateless && !session.core.supportedMethods.has(method)) {
      out.respond(errorMessage(idText, METHOD_NOT_FOUND, `Method not found: ${quote(method)}`));
      return;
    }
    const validators = session.stateless
      ? session.core.statelessValidators
      : session.core.validators;
    if (validators === undefined) {
      // A table loads with the first request that needs it, which waits for it (and so do the
      // messages behind it: they wait for the same promise, so they keep their order). A request
      // whose client went meanwhile (HTTP) is not started.
      const core = session.core;
      const waiters = (session.tableWaiters ??= new TableWaiters());
      const waiter = waiters.add(out);
      (session.stateless ? core.loadStatelessValidators() : core.loadRequestValidators()).then(
        () => {
          if (waiters.loaded(waiter)) dispatchRequest(session, method, id, message, out);
          else out.abandon();
        },
        (error: unknown) => {
          waiters.loaded(waiter);
          core.log(`Loading the request validators failed: ${stackOf(error)}`);
          out.respond(
            errorMessage(
              idText,
              INTERNAL_ERROR,
              'Internal error: the request validators could not be loaded',
            ),
          );
        },
      );
      return;
    }
    const validate = validators.get(method);
    if (
      validate !== undefined &&
      !validate(message) &&
      !(session.stateless && session.core.features.validWithoutAnswers(validate, message))
    ) {
      out.respond(invalidParams(idText, method, validate));
      return;
    }
    // The eras differ only here: a 2026-07-28 request opens its input state (except the methods
    // only that revision has); a stateful session does not know those methods.
    const entry = session.core.features.methods.get(method);
    const params = paramsOf(message);
    if (
      session.stateless &&
      entry?.statelessOnly !== true &&
      !session.core.features.openInputState(session, idText, method, params, out)
    )
      return;
    if (entry === undefined || (entry.statelessOnly && !session.stateless)) {
      out.respond(errorMessage(idText, METHOD_NOT_FOUND, `Method not found: ${quote(method)}`));
      return;
    }
    entry.handle(session, id, idText, params, out);
  } catch (error) {
    session.core.log(`Internal error handling ${method}: ${stackOf(error)}`);
    out.respond(errorMessage(idText, INTERNAL_ERROR, 'Internal error'));
  }
}
