/**
 * Logging: logging/setLevel (a stateful session's threshold) and the notifications/message a
 * handler sends through `context.log`, dropped below the threshold.
 */
import type { JsonObject, LoggingLevel } from '../../api.js';
import type { Context } from '../../server/context.js';
import {
  INVALID_PARAMS,
  errorMessage,
  jsonOrUndefined,
  notificationMessage,
  quoteValue,
  resultMessage,
  type RequestId,
} from '../../protocol/jsonrpc.js';
import { RESOLVED, register, type MethodTable } from '../../server/method-common.js';
import type { Outbound } from '../../server/outbound.js';
import type { Session } from '../../server/session.js';

import { LOG_LEVELS } from '../../protocol/log-levels.js';
import { LOGGING_SET_LEVEL, MESSAGE } from '../../protocol/methods.js';

export function registerLogging(table: MethodTable): void {
  register(table, LOGGING_SET_LEVEL, setLogLevel);
}

function setLogLevel(
  session: Session,
  _id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  const threshold = LOG_LEVELS.indexOf(params['level'] as LoggingLevel);
  if (threshold === -1) {
    out.respond(
      errorMessage(idText, INVALID_PARAMS, `Unknown logging level: ${quoteValue(params['level'])}`),
    );
    return;
  }
  session.logThreshold = threshold;
  out.respond(resultMessage(idText, '{}'));
}

/** @internal */
export function sendLog(
  session: Session,
  context: Context,
  level: LoggingLevel,
  data: unknown,
  logger: string | undefined,
): Promise<void> {
  if (!session.core.hasLogging || context.cancelled) return RESOLVED;
  const index = LOG_LEVELS.indexOf(level);
  if (index === -1) return Promise.reject(new Error(`Unknown logging level: ${String(level)}`));
  if (index < session.logThreshold) return RESOLVED;
  const params = logger === undefined ? { level, data } : { level, logger, data };
  const text = jsonOrUndefined(params);
  if (text === undefined) return Promise.reject(new Error('Log data must be serializable as JSON'));
  context.out.emit(notificationMessage(MESSAGE, text));
  return RESOLVED;
}
