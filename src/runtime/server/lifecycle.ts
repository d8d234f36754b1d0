/**
 * Lifecycle: a stateful session's `initialize` (version negotiation, client capabilities), `ping`,
 * and the stateless revision's `server/discover`.
 */
import type { JsonObject } from '../api.js';
import {
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  errorMessage,
  isObject,
  quoteValue,
  resultMessage,
  type RequestId,
} from '../protocol/jsonrpc.js';
import {
  EMPTY_PARAMS,
  invalidParams,
  paramsOf,
  register,
  type MethodTable,
} from './method-common.js';
import type { Outbound } from './outbound.js';
import { INITIALIZE, PING, SERVER_DISCOVER, STATELESS_REVISION } from '../protocol/methods.js';
import type { Session } from './session.js';

/** A session's states: a stateful one starts NEW; a stateless one is INITIALIZED from its start. */
export const STATE_NEW = 0;
export const STATE_INITIALIZED = 1;
export const STATE_CLOSED = 2;

export function registerLifecycle(table: MethodTable): void {
  register(table, PING, ping);
  register(table, SERVER_DISCOVER, discover);
}

function ping(
  _session: Session,
  _id: RequestId,
  idText: string,
  _params: JsonObject,
  out: Outbound,
): void {
  out.respond(resultMessage(idText, '{}'));
}

function discover(
  session: Session,
  _id: RequestId,
  idText: string,
  _params: JsonObject,
  out: Outbound,
): void {
  out.respond(resultMessage(idText, session.core.discoverResult));
}

/** Answered before the session is initialized, so it is called by the dispatcher, not through the table. */
export function initialize(
  session: Session,
  idText: string,
  message: JsonObject,
  out: Outbound,
): void {
  if (session.state !== STATE_NEW) {
    out.respond(errorMessage(idText, INVALID_REQUEST, 'The session is already initialized'));
    return;
  }
  const params = paramsOf(message);
  const requested = params['protocolVersion'];
  if (typeof requested !== 'string') {
    out.respond(
      errorMessage(idText, INVALID_PARAMS, 'Unsupported protocol version', {
        supported: session.core.versions,
        requested:
          requested === undefined
            ? null
            : typeof requested === 'object' && requested !== null
              ? quoteValue(requested)
              : requested,
      }),
    );
    return;
  }
  const validate = session.core.initializeValidator;
  if (validate !== undefined && !validate(message)) {
    out.respond(invalidParams(idText, INITIALIZE, validate));
    return;
  }
  if (session.core.statefulVersions.length === 0) {
    out.respond(
      errorMessage(
        idText,
        METHOD_NOT_FOUND,
        `Method not found: initialize (this server speaks only ${STATELESS_REVISION})`,
      ),
    );
    return;
  }
  const version = session.core.statefulVersions.includes(requested)
    ? requested
    : session.core.statefulVersions[0]!;
  const capabilities = params['capabilities'];
  session.protocolVersion = version;
  session.clientCapabilities = isObject(capabilities) ? capabilities : EMPTY_PARAMS;
  session.state = STATE_INITIALIZED;
  session.core.listeners.add(session.onChange);
  out.respond(resultMessage(idText, session.core.initializeResults.get(version)!));
}
