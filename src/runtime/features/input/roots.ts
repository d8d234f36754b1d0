/**
 * `notifications/roots/list_changed` from a stateful client: the server's `onRootsListChanged`
 * hook hears it (2026-07-28 has no such notification; its clients send roots with each request).
 */
import type { Session } from '../../server/session.js';
import { stackOf } from '../../server/method-common.js';

export function rootsListChanged(session: Session): void {
  const hook = session.core.handlers.onRootsListChanged;
  if (hook === undefined || session.stateless) return;
  try {
    hook({
      sessionId: session.id,
      protocolVersion: session.protocolVersion,
      clientCapabilities: session.clientCapabilities,
    });
  } catch (error) {
    // A notification has no answer: the failure is the server's to read.
    session.core.log(`onRootsListChanged threw: ${stackOf(error)}`);
  }
}
