/**
 * Who may see a task, and the checks every task method starts with: the task id, the 2026-07-28
 * extension, and the record loaded only for its owner.
 */
import type { JsonObject } from '../../api.js';
import {
  INVALID_PARAMS,
  METHOD_NOT_FOUND,
  MISSING_CAPABILITY,
  errorMessage,
  isObject,
} from '../../protocol/jsonrpc.js';
import { ownerOf as authOwner } from '../../server/owner.js';
import { nodeCrypto } from '../../protocol/lazy-crypto.js';
import type { Outbound } from '../../server/outbound.js';
import type { Session } from '../../server/session.js';
import { TASKS_EXTENSION } from '../../server/task-wire.js';

/** The first stateful revision with tasks. */
export const TASKS_SINCE = '2025-11-25';

const owners = new WeakMap<Session, string>();

/**
 * Whose tasks a caller sees: a stateful session's own; at 2026-07-28 those of the verified token's
 * owner (manifest `auth`: issuer and `sub`, see `ownerOf`), else every task (the id is the bearer secret).
 */
export function ownerOf(session: Session, out: Outbound): string {
  if (session.stateless)
    return out.auth === undefined ? 'stateless' : `owner:${authOwner(out.auth)}`;
  let owner = owners.get(session);
  if (owner === undefined) {
    owner = `session:${session.id ?? nodeCrypto().randomUUID()}`;
    owners.set(session, owner);
  }
  return owner;
}

export function declaresExtension(session: Session): boolean {
  const extensions = session.clientCapabilities['extensions'];
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]);
}

export function missingExtension(idText: string): string {
  return errorMessage(
    idText,
    MISSING_CAPABILITY,
    `Missing required client capability: extension ${TASKS_EXTENSION}`,
    {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    },
  );
}

/**
 * The checks every tasks/* method shares: the era has the method, a 2026-07-28 client declared the
 * extension, `taskId` is a string. Answers and returns undefined when one fails.
 */
export function checkedTaskId(
  session: Session,
  idText: string,
  params: JsonObject,
  out: Outbound,
  method: string,
): string | undefined {
  if (!session.stateless && (session.protocolVersion < TASKS_SINCE || !session.core.tasksOffered)) {
    out.respond(errorMessage(idText, METHOD_NOT_FOUND, `Method not found: ${method}`));
    return undefined;
  }
  if (session.stateless && !declaresExtension(session)) {
    out.respond(missingExtension(idText));
    return undefined;
  }
  const taskId = params['taskId'];
  if (typeof taskId !== 'string') {
    out.respond(
      errorMessage(idText, INVALID_PARAMS, `Invalid params for ${method}: taskId must be a string`),
    );
    return undefined;
  }
  return taskId;
}
