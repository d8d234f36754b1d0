/**
 * What the app answers when the server asks (elicitation, sampling, roots), and the capabilities
 * that follows from it: each capability, and each part of one (`elicitation.form`/`url`,
 * `sampling.tools`/`context`, `roots.listChanged`), is declared only when the app's handlers say
 * so, and a request asking for a part the client did not declare is refused with -32602 before
 * any handler runs. The session (session.ts) routes the server's requests here, in both eras.
 */
import type {
  ElicitFormParams,
  ElicitResult,
  ElicitUrlParams,
  ElicitUrlResult,
  JsonObject,
  SampleParams,
  SampleResult,
} from '../api.js';
import { McpError } from '../protocol/errors.js';
import { INVALID_PARAMS, METHOD_NOT_FOUND, isObject } from '../protocol/jsonrpc.js';
import {
  ELICITATION_CREATE,
  PING,
  ROOTS_LIST,
  SAMPLING_CREATE_MESSAGE,
} from '../protocol/methods.js';

export type Awaitable<T> = T | Promise<T>;
export interface HandlerContext {
  signal: AbortSignal;
}

export type FormElicitationHandler = (
  params: ElicitFormParams,
  context: HandlerContext,
) => Awaitable<ElicitResult>;
/** Show the user `params.url` (the full URL, with its host) and open it only with their consent. */
export type UrlElicitationHandler = (
  params: ElicitUrlParams,
  context: HandlerContext,
) => Awaitable<ElicitUrlResult>;
export type SamplingHandler = (
  params: SampleParams,
  context: HandlerContext,
) => Awaitable<SampleResult>;
export type RootsHandler = (
  context: HandlerContext,
) => Awaitable<{ roots: { uri: string; name?: string }[] } & JsonObject>;

/**
 * The app's answers to the server. A plain function is the simple form (elicitation: form mode
 * only; sampling: neither tools nor context; roots: no list changes); the object form says what
 * else the client supports.
 */
export interface ClientHandlers {
  elicitation?:
    FormElicitationHandler | { form?: FormElicitationHandler; url?: UrlElicitationHandler };
  sampling?:
    SamplingHandler | { createMessage: SamplingHandler; tools?: boolean; context?: boolean };
  roots?: RootsHandler | { list: RootsHandler; listChanged?: boolean };
}

/** The `capabilities` these handlers declare (initialize, or `_meta` at 2026-07-28). */
export function declaredCapabilities(handlers: ClientHandlers): JsonObject {
  const capabilities: JsonObject = {};
  const { roots, sampling, elicitation } = handlers;
  if (roots !== undefined)
    capabilities['roots'] =
      typeof roots !== 'function' && roots.listChanged === true ? { listChanged: true } : {};
  if (sampling !== undefined) {
    const declared: JsonObject = {};
    if (typeof sampling !== 'function') {
      if (sampling.tools === true) declared['tools'] = {};
      if (sampling.context === true) declared['context'] = {};
    }
    capabilities['sampling'] = declared;
  }
  if (elicitation !== undefined) {
    const modes: JsonObject = {};
    if (typeof elicitation === 'function' || elicitation.form !== undefined) modes['form'] = {};
    if (typeof elicitation !== 'function' && elicitation.url !== undefined) modes['url'] = {};
    if (Object.keys(modes).length > 0) capabilities['elicitation'] = modes;
  }
  return capabilities;
}

/** 2026-07-28 has no `roots.listChanged` (nor the notification): left out of the `_meta` capabilities. */
export function statelessCapabilities(capabilities: JsonObject): JsonObject {
  const roots = capabilities['roots'];
  return isObject(roots) && roots['listChanged'] !== undefined
    ? { ...capabilities, roots: {} }
    : capabilities;
}

/** The app's answer to one server request; McpError (-32601, -32602) when the client cannot give one. */
export async function answerServerRequest(
  handlers: ClientHandlers,
  method: string,
  params: JsonObject,
  signal: AbortSignal,
): Promise<JsonObject> {
  switch (method) {
    case PING:
      return {};
    case ELICITATION_CREATE:
      if (handlers.elicitation !== undefined)
        return elicit(handlers.elicitation, params, { signal });
      break;
    case SAMPLING_CREATE_MESSAGE:
      if (handlers.sampling !== undefined) return sample(handlers.sampling, params, { signal });
      break;
    case ROOTS_LIST:
      if (handlers.roots !== undefined)
        return (typeof handlers.roots === 'function' ? handlers.roots : handlers.roots.list)({
          signal,
        });
      break;
  }
  throw new McpError(METHOD_NOT_FOUND, `Method not found: ${method}`);
}

function elicit(
  handler: NonNullable<ClientHandlers['elicitation']>,
  params: JsonObject,
  context: HandlerContext,
): Awaitable<JsonObject> {
  // A request without `mode` is form mode.
  const mode = params['mode'] ?? 'form';
  const form = typeof handler === 'function' ? handler : handler.form;
  const url = typeof handler === 'function' ? undefined : handler.url;
  if (mode === 'form' && form !== undefined) return form(params as ElicitFormParams, context);
  if (mode === 'url' && url !== undefined) return url(params as ElicitUrlParams, context);
  throw new McpError(
    INVALID_PARAMS,
    `Invalid params: this client did not declare elicitation mode ${JSON.stringify(mode)}`,
  );
}

function sample(
  handler: NonNullable<ClientHandlers['sampling']>,
  params: JsonObject,
  context: HandlerContext,
): Awaitable<JsonObject> {
  const declaresTools = typeof handler !== 'function' && handler.tools === true;
  if (!declaresTools && (params['tools'] !== undefined || params['toolChoice'] !== undefined)) {
    throw new McpError(
      INVALID_PARAMS,
      'Invalid params: this client did not declare sampling.tools, so it takes no tools or toolChoice',
    );
  }
  return (typeof handler === 'function' ? handler : handler.createMessage)(
    params as SampleParams,
    context,
  );
}
