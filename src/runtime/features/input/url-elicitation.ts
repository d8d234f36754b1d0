/**
 * URL-mode elicitation beyond the request itself: the `elicitationId` a 2025-11-25 request needs,
 * `notifications/elicitation/complete`, and the URL-elicitation-required error a handler throws
 * (-32042 in 2025-11-25; in 2026-07-28, which has no such error, an input-required result asking
 * for the same URL elicitations). Also where a `ClientCapabilityError` a handler let escape becomes
 * the stateless revision's -32021.
 */
import type { ElicitUrlParams, JsonObject } from '../../api.js';
import type { Context } from '../../server/context.js';
import { McpError } from '../../protocol/errors.js';
import {
  ClientCapabilityError,
  URL_ELICITATION_SINCE,
  elicitationModes,
} from './input-capabilities.js';
import { requestInput } from './input-requests.js';
import { NO_ANSWERS } from '../../server/features.js';
import { MISSING_CAPABILITY, errorMessage, notificationMessage } from '../../protocol/jsonrpc.js';
import { nodeCrypto } from '../../protocol/lazy-crypto.js';
import type { Session } from '../../server/session.js';
import { ELICITATION_COMPLETE, ELICITATION_CREATE } from '../../protocol/methods.js';

/** JSON-RPC code of URLElicitationRequiredError (2025-11-25). */
export const URL_ELICITATION_REQUIRED = -32042;

/** One URL elicitation the client must complete before the request can succeed. */
export interface RequiredUrlElicitation {
  url: string;
  message: string;
  /** Made up (a random UUID) when left out; pass your own to send `completeElicitation` later. */
  elicitationId?: string;
}

/**
 * Thrown by a handler whose request cannot go on until the user completes URL elicitations
 * (a sign-in, a payment). In 2025-11-25 the client gets error -32042 with the elicitations; in
 * 2026-07-28 an input-required result asking for them, and the retry runs the handler again.
 */
export class UrlElicitationRequiredError extends McpError {
  readonly elicitations: readonly (ElicitUrlParams & { elicitationId: string })[];

  constructor(
    elicitations: readonly RequiredUrlElicitation[],
    message = 'This request requires a URL elicitation to be completed first',
  ) {
    const full = elicitations.map((e) => ({
      mode: 'url' as const,
      elicitationId: e.elicitationId ?? nodeCrypto().randomUUID(),
      url: e.url,
      message: e.message,
    }));
    super(URL_ELICITATION_REQUIRED, message, { elicitations: full });
    this.name = 'UrlElicitationRequiredError';
    this.elicitations = full;
  }
}

/**
 * The params as the negotiated revision spells them: a 2025-11-25 URL elicitation carries an
 * `elicitationId` (made up when the handler gave none); 2026-07-28 has no such field.
 */
export function urlElicitationParams(session: Session, params: JsonObject): JsonObject {
  if (params['mode'] !== 'url') return params;
  if (session.stateless) {
    if (params['elicitationId'] === undefined) return params;
    const { elicitationId: _dropped, ...rest } = params;
    return rest;
  }
  return typeof params['elicitationId'] === 'string'
    ? params
    : { ...params, elicitationId: nodeCrypto().randomUUID() };
}

/**
 * `notifications/elicitation/complete` to the client that was asked (2025-11-25 on): on the
 * request's own stream while it runs, then on the session's standalone stream. False when it could
 * not be sent (another revision, or nowhere to send it).
 */
export function completeElicitation(
  session: Session,
  context: Context,
  elicitationId: string,
): boolean {
  if (session.stateless || session.protocolVersion < URL_ELICITATION_SINCE) return false;
  const message = notificationMessage(ELICITATION_COMPLETE, JSON.stringify({ elicitationId }));
  if (!context.done && !context.cancelled && context.out.canEmit) {
    context.out.emit(message);
    return true;
  }
  if (session.standalone === undefined) return false;
  session.standalone.emit(message);
  return true;
}

/**
 * Answers a request whose handler failed with one of the errors above, the way the negotiated
 * revision says; false leaves the failure to the caller's usual answer.
 */
export function answerInputError(session: Session, context: Context, error: unknown): boolean {
  if (error instanceof UrlElicitationRequiredError)
    return urlElicitationRequired(session, context, error);
  if (error instanceof ClientCapabilityError && session.stateless) {
    if (session.settle(context)) {
      context.out.respond(
        errorMessage(
          context.idText,
          MISSING_CAPABILITY,
          `Missing required client capability: ${error.message}`,
          {
            requiredCapabilities: error.requiredCapabilities,
          },
        ),
      );
    }
    return true;
  }
  return false;
}

function urlElicitationRequired(
  session: Session,
  context: Context,
  error: UrlElicitationRequiredError,
): boolean {
  if (!session.stateless) {
    if (session.protocolVersion < URL_ELICITATION_SINCE) return false;
    if (session.settle(context))
      context.out.respond(
        errorMessage(context.idText, URL_ELICITATION_REQUIRED, error.message, error.data),
      );
    return true;
  }
  if (!elicitationModes(session.clientCapabilities).url) {
    if (session.settle(context)) {
      context.out.respond(
        errorMessage(
          context.idText,
          MISSING_CAPABILITY,
          'Missing required client capability: elicitation.url',
          {
            requiredCapabilities: { elicitation: { url: {} } },
          },
        ),
      );
    }
    return true;
  }
  // The handler threw again on a retry: the interaction is not complete yet, so ask once more
  // rather than resolve from the answer the client gave last round.
  for (const { elicitationId, url, message } of error.elicitations) {
    const key = `elicitation-url-${elicitationId}`;
    if (session.answers !== NO_ANSWERS) delete session.answers[key];
    void requestInput(
      session,
      context,
      ELICITATION_CREATE,
      'elicitation',
      { mode: 'url', url, message },
      key,
    );
  }
  return true;
}
