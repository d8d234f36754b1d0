/**
 * completion/complete: the handler of the argument asked about (`handlers.completions[ref][name]`),
 * else the server-wide `handlers.complete`, else the manifest's enum values that start with what
 * was typed; the values capped at 100 (then `hasMore`).
 */
import type { CompletionHandler, JsonObject } from '../../api.js';
import { Context } from '../../server/context.js';
import { isObject, resultMessage, type RequestId } from '../../protocol/jsonrpc.js';
import { invoke, metaOf, register, type MethodTable } from '../../server/method-common.js';
import type { Outbound } from '../../server/outbound.js';
import type { Session } from '../../server/session.js';
import { COMPLETION_COMPLETE } from '../../protocol/methods.js';

const MAX_COMPLETION_VALUES = 100;
const NO_VALUES = '{"completion":{"values":[]}}';

export function registerCompletion(table: MethodTable): void {
  register(table, COMPLETION_COMPLETE, complete);
}

/** What the request completes: a prompt's argument or a template's variable, and the other values. */
interface Target {
  kind: 'prompts' | 'resourceTemplates';
  /** Prompt name or URI template. */
  key: string;
  argument: string;
  value: string;
  resolved: Record<string, string>;
}

function targetOf(params: JsonObject): Target | undefined {
  const ref = params['ref'];
  const argument = params['argument'];
  if (!isObject(ref) || !isObject(argument) || typeof argument['name'] !== 'string')
    return undefined;
  const kind =
    ref['type'] === 'ref/prompt'
      ? 'prompts'
      : ref['type'] === 'ref/resource'
        ? 'resourceTemplates'
        : undefined;
  const key = kind === 'prompts' ? ref['name'] : ref['uri'];
  if (kind === undefined || typeof key !== 'string') return undefined;
  const context = params['context'];
  const resolved = Object.create(null) as Record<string, string>;
  if (isObject(context) && isObject(context['arguments'])) {
    for (const [name, value] of Object.entries(context['arguments']))
      if (typeof value === 'string') resolved[name] = value;
  }
  return {
    kind,
    key,
    argument: argument['name'],
    value: typeof argument['value'] === 'string' ? argument['value'] : '',
    resolved,
  };
}

function complete(
  session: Session,
  id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  const { handlers, definition } = session.core;
  const target = targetOf(params);
  const own = target === undefined ? undefined : argumentHandler(session, target);
  if (own !== undefined && target !== undefined) {
    const context = new Context(session, id, idText, metaOf(params), out);
    invoke(session, context, () => own(target.value, target.resolved, context), completionResult);
    return;
  }
  if (handlers.complete !== undefined) {
    const handler = handlers.complete;
    const context = new Context(session, id, idText, metaOf(params), out);
    invoke(session, context, () => handler(params, context), completionResult);
    return;
  }
  const defaults =
    target === undefined
      ? undefined
      : ownEntry(
          ownEntry(definition.completionDefaults?.[target.kind], target.key),
          target.argument,
        );
  if (!Array.isArray(defaults) || target === undefined) {
    out.respond(resultMessage(idText, NO_VALUES));
    return;
  }
  out.respond(
    resultMessage(
      idText,
      completionResult((defaults as readonly string[]).filter((v) => v.startsWith(target.value))),
    ),
  );
}

/** `record[key]` when it is the record's own (a prompt named `constructor` is no prototype member). */
function ownEntry<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The handler for this argument, only when the ref names a prompt or template the server has. */
function argumentHandler(session: Session, target: Target): CompletionHandler | undefined {
  const byName = session.core.handlers.completions;
  if (byName === undefined || !Object.hasOwn(byName, target.key)) return undefined;
  const listed =
    target.kind === 'prompts'
      ? session.core.definition.prompts.some((p) => p['name'] === target.key)
      : session.core.definition.resourceTemplates.some((t) => t['uriTemplate'] === target.key);
  const handlers = byName[target.key];
  if (!listed || handlers === undefined || !Object.hasOwn(handlers, target.argument))
    return undefined;
  return handlers[target.argument];
}

function completionResult(value: unknown): string {
  const result = Array.isArray(value) ? { values: value } : value;
  if (!isObject(result) || !Array.isArray(result['values']))
    throw new Error('The completion handler returned no values array');
  const values = result['values'] as unknown[];
  const completion: JsonObject = { values: values.slice(0, MAX_COMPLETION_VALUES) };
  if (result['total'] !== undefined) completion['total'] = result['total'];
  if (result['hasMore'] !== undefined || values.length > MAX_COMPLETION_VALUES) {
    completion['hasMore'] = values.length > MAX_COMPLETION_VALUES || result['hasMore'] === true;
  }
  return JSON.stringify({ completion });
}
