/**
 * Change notifications: the stateless revision's `subscriptions/listen` stream, and a stateful
 * session's share of an announced change (list changes, updates of subscribed resources).
 */
import type { JsonObject } from '../../api.js';
import { Context } from '../../server/context.js';
import {
  INVALID_REQUEST,
  errorMessage,
  isObject,
  notificationMessage,
  type RequestId,
} from '../../protocol/jsonrpc.js';
import { STATE_INITIALIZED } from '../../server/lifecycle.js';
import { metaOf, register, type MethodTable } from '../../server/method-common.js';
import type { Outbound } from '../../server/outbound.js';
import type { ChangeEvent } from '../../server/server.js';
import type { Session } from '../../server/session.js';
import { META_SUBSCRIPTION_ID, listenFilterOffered } from '../../server/stateless.js';
import { SUBSCRIPTIONS_ACKNOWLEDGED, SUBSCRIPTIONS_LISTEN } from '../../protocol/methods.js';

export function registerSubscriptions(table: MethodTable): void {
  register(table, SUBSCRIPTIONS_LISTEN, listen);
}

/** 2026-07-28 `subscriptions/listen`: acknowledges, then forwards matching changes until cancelled. */
function listen(
  session: Session,
  id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  if (!out.canEmit) {
    out.respond(
      errorMessage(
        idText,
        INVALID_REQUEST,
        'subscriptions/listen needs a client that accepts text/event-stream',
      ),
    );
    return;
  }
  const offered = listenFilterOffered(session.core) ?? new Set<string>();
  const asked = isObject(params['notifications']) ? params['notifications'] : {};
  const honoured: JsonObject = {};
  for (const key of offered) {
    const value = asked[key];
    if (key === 'resourceSubscriptions' ? Array.isArray(value) : value === true)
      honoured[key] = value;
  }
  const uris = new Set(
    Array.isArray(honoured['resourceSubscriptions'])
      ? (honoured['resourceSubscriptions'] as unknown[])
      : [],
  );
  const context = new Context(session, id, idText, metaOf(params), out);
  session.track(context);
  // A listen stream lasts as long as the client wants: the handler timeout does not apply.
  session.core.deadlines?.delete(context);
  const meta = { [META_SUBSCRIPTION_ID]: id };
  out.emit(
    notificationMessage(
      SUBSCRIPTIONS_ACKNOWLEDGED,
      JSON.stringify({ notifications: honoured, _meta: meta }),
    ),
  );
  const listener = (event: ChangeEvent): void => {
    if (context.cancelled || context.done) return;
    if (
      event.filter === 'resourceSubscriptions'
        ? !uris.has(event.uri)
        : honoured[event.filter] !== true
    )
      return;
    const body = event.uri === undefined ? { _meta: meta } : { uri: event.uri, _meta: meta };
    out.emit(notificationMessage(event.method, JSON.stringify(body)));
  };
  session.core.listeners.add(listener);
  for (const uri of uris) if (typeof uri === 'string') session.core.resourceLists.watch(uri);
  context.signal.addEventListener(
    'abort',
    () => {
      session.core.listeners.delete(listener);
      for (const uri of uris) if (typeof uri === 'string') session.core.resourceLists.unwatch(uri);
    },
    { once: true },
  );
}

/** A stateful session's share of an announced change, on its standalone stream. */
export function changed(session: Session, event: ChangeEvent): void {
  const out = session.standalone;
  if (out === undefined || session.state !== STATE_INITIALIZED) return;
  if (event.filter === 'resourceSubscriptions') {
    if (event.uri === undefined || session.subscriptions?.has(event.uri) !== true) return;
    out.emit(notificationMessage(event.method, JSON.stringify({ uri: event.uri })));
    return;
  }
  const kind =
    event.filter === 'toolsListChanged'
      ? 'tools'
      : event.filter === 'promptsListChanged'
        ? 'prompts'
        : 'resources';
  const capability = session.core.definition.capabilities[kind];
  if (isObject(capability) && capability['listChanged'] === true)
    out.emit(notificationMessage(event.method, '{}'));
}
