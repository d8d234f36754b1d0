/**
 * The client runtime's entry point. Generated `client.ts` calls `openSession` with the app's
 * connection options and binds one typed method per tool to `callTool`.
 */
import type { JsonObject, Validator } from '../api.js';
import { OutputValidationError, ToolError } from './errors.js';
import { headerMirrors, paramHeaders, type HeaderMirror } from './headers.js';
import { ClientSession, type ClientHandlers, type RequestOptions, type ServerIdentity } from './session.js';
import type { StdioServerParameters } from './stdio.js';
import type { ClientTransport } from './transport.js';

export { McpError } from '../errors.js';
export type { JsonObject, Validator } from '../api.js';
export * from './errors.js';
export { ClientSession, CLIENT_PROTOCOL_VERSIONS, STATELESS_REVISION } from './session.js';
export type { ClientHandlers, RequestOptions, ServerIdentity, SessionOptions } from './session.js';
export type { StdioServerParameters } from './stdio.js';
export type { Subscription, SubscriptionEnd, SubscriptionNotification } from './subscriptions.js';
export { headerMirrors, headerValue, paramHeaderValue, type HeaderMirror } from './headers.js';
export type { ClientTransport, OutgoingInfo } from './transport.js';
export { startToolTask, TaskCancelledError, TASKS_EXTENSION, type TaskHandle, type TaskOptions, type TaskState, type TaskStatus } from './tasks.js';

/** Where the server is: a Streamable HTTP URL, or a command to spawn over stdio. */
export type ServerLocation =
  | { url: string | URL; headers?: Readonly<Record<string, string>> }
  | StdioServerParameters;

export interface ClientOptions {
  clientInfo?: { name: string; version: string };
  /** Answers to what the server asks; each declares its capability only when given. */
  handlers?: ClientHandlers;
  /** Revisions to offer, newest first (default: every revision the runtime speaks). */
  protocolVersions?: readonly string[];
  /** Server notifications other than progress (log messages, list changes, …). */
  onNotification?: (method: string, params: JsonObject) => void;
}

export type ConnectOptions = ServerLocation & ClientOptions;

/** Options of one call. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** Builds the transport for a location; HTTP is loaded only when used. */
export async function transportFor(location: ServerLocation): Promise<ClientTransport> {
  if ('url' in location) {
    const { StreamableHttpTransport } = await import('./http.js');
    return new StreamableHttpTransport(location.headers === undefined ? { url: location.url } : { url: location.url, headers: location.headers });
  }
  const { StdioClientTransport } = await import('./stdio.js');
  return new StdioClientTransport(location);
}

/** Connects and negotiates; the session is ready for requests. */
export async function openSession(options: ConnectOptions): Promise<ClientSession> {
  const session = new ClientSession(await transportFor(options), {
    ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
    ...(options.handlers ? { handlers: options.handlers } : {}),
    ...(options.protocolVersions ? { protocolVersions: options.protocolVersions } : {}),
    ...(options.onNotification ? { onNotification: options.onNotification } : {}),
  });
  try {
    await session.connect();
  } catch (error) {
    await session.close().catch(() => {});
    throw error;
  }
  return session;
}

/** What generated code knows about one tool. */
export interface ClientToolBinding {
  /** Wire name. */
  readonly name: string;
  /** Present exactly when the tool declares an outputSchema. */
  readonly validateOutput?: Validator<unknown>;
  /** Arguments mirrored into `Mcp-Param-<header>` (HTTP). */
  readonly headers?: readonly HeaderMirror[];
}

/**
 * A binding for a tool known only at run time (from tools/list): its header mirrors, or why it must
 * not be called (invalid `x-mcp-header`). Output is not validated: there is no precompiled validator.
 */
export function bindListedTool(tool: JsonObject): { binding: ClientToolBinding } | { problem: string } {
  const name = tool['name'];
  if (typeof name !== 'string') return { problem: 'the tool has no name' };
  const input = tool['inputSchema'];
  const mirrors = typeof input === 'object' && input !== null && !Array.isArray(input) ? headerMirrors(input as JsonObject) : { mirrors: [] };
  if ('problem' in mirrors) return { problem: `tool ${JSON.stringify(name)}: ${mirrors.problem}` };
  return { binding: mirrors.mirrors.length > 0 ? { name, headers: mirrors.mirrors } : { name } };
}

/**
 * `tools/call`, then: `isError` → ToolError; a tool with an outputSchema → its `structuredContent`,
 * validated (OutputValidationError keeps the raw result); otherwise the whole result.
 */
export async function callTool(session: ClientSession, binding: ClientToolBinding, input: unknown, options: CallOptions = {}): Promise<unknown> {
  const request: RequestOptions = { signal: options.signal, timeoutMs: options.timeoutMs, onProgress: options.onProgress };
  if (binding.headers !== undefined && binding.headers.length > 0) request.headers = paramHeaders(binding.headers, input);
  const result = await session.request('tools/call', { name: binding.name, arguments: input ?? {} }, request);
  if (result['isError'] === true) throw new ToolError(binding.name, result);
  const validate = binding.validateOutput;
  if (validate === undefined) return result;
  if (!('structuredContent' in result)) throw new OutputValidationError(binding.name, result, [], 'it has no structuredContent');
  const output = result['structuredContent'];
  if (!validate(output)) throw new OutputValidationError(binding.name, result, validate.errors);
  return output;
}

/** Every page of a list method, concatenated. */
export async function listAll(session: ClientSession, method: string, field: string, options: RequestOptions = {}): Promise<JsonObject[]> {
  const items: JsonObject[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const result = await session.request(method, cursor === undefined ? {} : { cursor }, options);
    const page = result[field];
    if (Array.isArray(page)) for (const item of page) if (typeof item === 'object' && item !== null && !Array.isArray(item)) items.push(item as JsonObject);
    const next = result['nextCursor'];
    cursor = typeof next === 'string' && next !== '' && !seen.has(next) ? next : undefined;
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return items;
}

/** Expands a level-1 (`{name}`) / reserved (`{+name}`) URI template. */
export function expandUriTemplate(template: string, variables: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\+?)([^{}]+)\}/g, (_, reserved: string, name: string) => {
    const value = Object.hasOwn(variables, name) ? (variables[name] as string) : '';
    return reserved === '+' ? encodeURI(value) : encodeURIComponent(value);
  });
}

export type { ServerIdentity as Server };
