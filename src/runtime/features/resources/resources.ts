/**
 * Resources: the list and template-list pages, resources/read (exact URI first, then templates in
 * order), and a stateful session's resources/subscribe and resources/unsubscribe.
 */
import type { JsonObject } from '../../api.js';
import { Context } from '../../server/context.js';
import {
  INVALID_PARAMS,
  RESOURCE_NOT_FOUND,
  errorMessage,
  isObject,
  quote,
  resultMessage,
  type RequestId,
} from '../../protocol/jsonrpc.js';
import { listPage } from '../../server/lists.js';
import { invoke, metaOf, register, type MethodTable } from '../../server/method-common.js';
import { listDynamicResources } from '../../server/resource-lists.js';
import type { Outbound } from '../../server/outbound.js';
import type { Session } from '../../server/session.js';
import {
  RESOURCES_LIST,
  RESOURCES_READ,
  RESOURCES_SUBSCRIBE,
  RESOURCES_TEMPLATES_LIST,
  RESOURCES_UNSUBSCRIBE,
} from '../../protocol/methods.js';

export function registerResources(table: MethodTable): void {
  register(table, RESOURCES_LIST, listResources);
  register(table, RESOURCES_TEMPLATES_LIST, listTemplates);
  register(table, RESOURCES_READ, readResource);
  register(table, RESOURCES_SUBSCRIBE, subscribe);
  register(table, RESOURCES_UNSUBSCRIBE, unsubscribe);
}

/** With templates that list their resources, the list is built per request (resource-lists.ts). */
function listResources(
  session: Session,
  id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  if (session.core.resourceLists.listed.length > 0)
    listDynamicResources(session, id, idText, params, out);
  else listPage(session.core.resourcePages, RESOURCES_LIST, idText, params, out);
}

function listTemplates(
  session: Session,
  _id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  listPage(session.core.templatePages, RESOURCES_TEMPLATES_LIST, idText, params, out);
}

/** The set of subscribed URIs is made on the first subscribe; a URI new to it counts as a subscriber (hooks). */
function subscribe(
  session: Session,
  _id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  const uri = params['uri'];
  const subscriptions = (session.subscriptions ??= new Set());
  if (typeof uri === 'string' && !subscriptions.has(uri)) {
    subscriptions.add(uri);
    session.core.resourceLists.watch(uri);
  }
  out.respond(resultMessage(idText, '{}'));
}

function unsubscribe(
  session: Session,
  _id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  const uri = params['uri'];
  if (typeof uri === 'string' && session.subscriptions?.delete(uri) === true)
    session.core.resourceLists.unwatch(uri);
  out.respond(resultMessage(idText, '{}'));
}

function readResource(
  session: Session,
  id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  const uri = params['uri'];
  if (typeof uri !== 'string') {
    out.respond(errorMessage(idText, INVALID_PARAMS, 'resources/read needs a string uri'));
    return;
  }
  const handler = session.core.resources.get(uri);
  if (handler !== undefined) {
    const context = new Context(session, id, idText, metaOf(params), out);
    invoke(session, context, () => handler(uri, context), resourceResult);
    return;
  }
  for (const template of session.core.templates) {
    const variables = template.matcher.match(uri);
    if (variables !== undefined) {
      const context = new Context(session, id, idText, metaOf(params), out);
      invoke(session, context, () => template.handler(uri, variables, context), resourceResult);
      return;
    }
  }
  // 2026-07-28 (SEP-2164) says invalid params; the stateful revisions use -32002.
  out.respond(
    errorMessage(
      idText,
      session.stateless ? INVALID_PARAMS : RESOURCE_NOT_FOUND,
      `Resource not found: ${quote(uri)}`,
      { uri: quote(uri) },
    ),
  );
}

function resourceResult(value: unknown): string {
  if (!isObject(value) || !Array.isArray(value['contents']))
    throw new Error('The resource handler returned no contents array');
  return JSON.stringify(value);
}
