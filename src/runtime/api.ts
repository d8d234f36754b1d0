/**
 * The contract between generated server code and the runtime. Generated `server.ts` builds a
 * `ServerDefinition` from the manifest and hands it, with the user's handlers, to `createServer`.
 *
 * The runtime is copied into every output folder and imports nothing but `node:*`, so the wire
 * types it needs are declared here, loosely (index signatures keep unknown fields), rather than
 * imported from the protocol bindings.
 */

import type {
  ElicitFormParams,
  ElicitResult,
  ElicitUrlParams,
  ElicitUrlResult,
  SampleParams,
  SampleResult,
} from './protocol/input-types.js';

export type * from './protocol/input-types.js';
export type * from './protocol/list-types.js';
export type * from './protocol/content-types.js';
export type * from './protocol/task-types.js';
export type * from './protocol/server-options.js';
export type * from './protocol/definition-types.js';
import type { ResourceContents, ContentBlock } from './protocol/content-types.js';
import type { ListControl } from './protocol/list-types.js';

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: unknown };

/** One problem reported by a validator; ajv standalone output produces objects of this shape. */
export interface ValidationIssue {
  instancePath: string;
  schemaPath?: string;
  keyword: string;
  params?: Record<string, unknown>;
  message?: string;
}

/** A precompiled validator: a type guard that leaves its problems on `.errors` when it fails. */
export interface Validator<T> {
  (data: unknown): data is T;
  errors?: ValidationIssue[] | null;
}

export type LoggingLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/**
 * What a tool handler returns.
 * - Tools with an `outputSchema` return `structuredContent` typed by that schema; `content` may be
 *   left out, and the runtime then fills it with one text block holding the JSON.
 * - Tools without one return `content`.
 * - Any tool may report a failure the model should see with `{ isError: true, content }`.
 */
export type ToolResult<Output> = [Output] extends [never]
  ? ContentResult | ToolErrorResult
  : StructuredResult<Output> | ToolErrorResult;

export interface StructuredResult<Output> {
  structuredContent: Output;
  content?: ContentBlock[];
  isError?: false;
  _meta?: JsonObject;
}
export interface ContentResult {
  content: ContentBlock[];
  isError?: false;
  _meta?: JsonObject;
}
export interface ToolErrorResult {
  isError: true;
  content: ContentBlock[];
  _meta?: JsonObject;
}

/**
 * Who called, on a server whose manifest has `auth` (Streamable HTTP): taken from the verified
 * access token. The token itself is never kept.
 */
export interface AuthInfo {
  /** The token's subject (`sub`); for a client acting on its own behalf, usually its client id. */
  readonly subject: string;
  /** The OAuth client the token was issued to (`client_id` or `azp`), when the token says. */
  readonly clientId: string | undefined;
  /** The scopes the token grants. */
  readonly scopes: readonly string[];
  /** Every claim of the JWT, or the introspection answer, or what your `verifyToken` returned. */
  readonly claims: JsonObject;
  /** When the token expires, in seconds since the epoch, when known. */
  readonly expiresAt: number | undefined;
  /**
   * Who 2025-11-25 sessions and 2026-07-28 tasks opened with this token belong to. The JWT and
   * introspection verifiers set it from the issuer and `sub` (a token without `sub`: that token
   * alone, never its client id); a `verifyToken` hook may leave it out, and `subject` is used.
   */
  readonly owner?: string;
}

/**
 * Everything a handler may do besides returning its result. One API for both protocol eras:
 * in the stateful revisions `elicit`, `sample` and `listRoots` send real server→client requests on
 * the request's own stream; in the stateless 2026-07-28 revision the runtime answers the request
 * with an input-required result instead, and runs the handler again when the client retries with
 * the answers (the handler sees the same promise resolve either way).
 *
 * `ToolName` and `PromptName` are the names `lists` takes: a generated server's `HandlerContext`
 * narrows them to the manifest's (`types.ts`), so a misspelt name is a compile error.
 */
export interface RequestContext<
  ToolName extends string = string,
  PromptName extends string = string,
> {
  /**
   * Aborted when the client cancels the request, or on HTTP when the POST carrying it disconnects
   * before its response started streaming, or its session ends. On stdio, handlers still running
   * when the input ends are left to finish.
   */
  readonly signal: AbortSignal;
  /** The negotiated protocol revision, e.g. `2025-11-25`; `2026-07-28` for a stateless request. */
  readonly protocolVersion: string;
  /** Set on HTTP sessions. */
  readonly sessionId: string | undefined;
  /** The request's `_meta`, as the client sent it. */
  readonly meta: JsonObject | undefined;
  /** The verified caller, when the server is an OAuth resource server (manifest `auth`, HTTP); else undefined. */
  readonly auth: AuthInfo | undefined;
  /** What the client declared: at initialize (stateful), or in this request's `_meta` (2026-07-28). */
  readonly clientCapabilities: JsonObject;
  /** Announces changes to every client listening (see `Notifier`). */
  readonly notify: Notifier;
  /**
   * The server's run-time lists: enable or disable tools and prompts. A generated server's handlers
   * take only the manifest's names here (as `McpServer.tools` / `.prompts` do); names are also
   * checked at run time.
   */
  readonly lists: {
    readonly tools: ListControl<ToolName>;
    readonly prompts: ListControl<PromptName>;
  };
  /** Sends `notifications/progress` when the client asked for progress; otherwise does nothing. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sets the `statusMessage` of the task this call runs as (undefined clears it): clients see it
   * in `tasks/get`, and in 2025-11-25 also in `tasks/list` and `notifications/tasks/status`. It
   * stays while the task works (an input request shows its own message meanwhile) and is cleared
   * when the task completes. Resolves once the task store has it; with a shared store (`--redis`)
   * it is written behind, at once: every process answers with it after a short delay (one save for
   * every message set meanwhile). Does nothing when the call does not run as a task.
   */
  setStatusMessage(message: string | undefined): Promise<void>;
  /**
   * Sends `notifications/message` when the server declares the logging capability and `level`
   * passes the client's filter (`logging/setLevel`, or `_meta["io.modelcontextprotocol/logLevel"]`
   * in 2026-07-28, where a request without it gets no logs).
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * `elicitation/create`; rejects when the client did not declare the elicitation capability (in
   * 2026-07-28 the request is then answered with -32021). `options.key` names the input in a
   * 2026-07-28 input-required result (default `elicitation-<n>`). Form mode (`mode` left out or
   * `'form'`) needs `elicitation.form` (a bare `elicitation: {}` counts as form), URL mode
   * (`{ mode: 'url', url, message }`, 2025-11-25 on) needs `elicitation.url`; without it the
   * promise rejects with `ClientCapabilityError` and nothing is sent.
   */
  elicit(params: ElicitUrlParams, options?: InputOptions): Promise<ElicitUrlResult>;
  elicit(params: ElicitFormParams, options?: InputOptions): Promise<ElicitResult>;
  /**
   * `sampling/createMessage`; as `elicit`, for the sampling capability. `tools`/`toolChoice` need
   * the client's `sampling.tools` (2025-11-25 on), an `includeContext` other than `"none"` its
   * `sampling.context`; otherwise the promise rejects with `ClientCapabilityError`, nothing sent.
   */
  sample(params: SampleParams, options?: InputOptions): Promise<SampleResult>;
  /**
   * `notifications/elicitation/complete` for a URL elicitation this client was asked (2025-11-25;
   * on the request's stream while it runs, then on the session's standalone stream). False when it
   * could not be sent: another revision (2026-07-28 has no such notification) or no stream open.
   */
  completeElicitation(elicitationId: string): boolean;
  /** `roots/list`; as `elicit`, for the roots capability. */
  listRoots(options?: InputOptions): Promise<{ roots: { uri: string; name?: string }[] }>;
  /**
   * Streamable HTTP polling: ends the SSE response stream of this request now, telling the client to
   * reconnect after `retryMs` (default 1000) with `Last-Event-ID`; everything the request sends
   * later, its result included, reaches the client on the resumed stream. Does nothing on stdio or
   * when the response is plain JSON.
   */
  closeStream(retryMs?: number): void;
}

export interface InputOptions {
  /** The key of this input in a 2026-07-28 `inputRequests` map; stable across retries. */
  key?: string;
  /**
   * 2026-07-28, a tool that may run as a task: ask on the tools/call request itself (an
   * input-required round) before the task is created, instead of through the task's
   * `inputRequests`. Ignored once the call has become a task.
   */
  beforeTask?: boolean;
}

/**
 * Change announcements. Stateful clients hear them on their standalone stream (HTTP GET) or on
 * stdout; 2026-07-28 clients on their `subscriptions/listen` streams, filtered as they asked.
 * Resource updates reach only clients subscribed to that URI.
 */
export interface Notifier {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
  resourceUpdated(uri: string): void;
}

/** `Context` is the `RequestContext` the handler gets; generated code passes its `HandlerContext`. */
export type ToolHandler<Input, Output, Context = RequestContext> = (
  input: Input,
  context: Context,
) => ToolResult<Output> | Promise<ToolResult<Output>>;

/** A tool's validators. */
export interface ToolValidators {
  validateInput: Validator<unknown>;
  /** Present exactly when the tool declares an `outputSchema`. */
  validateOutput?: Validator<unknown>;
}

/**
 * One tool as the generated code describes it to the runtime: its validators, or `load`, which
 * imports them on the tool's first call (generated servers keep each tool's validators in a module
 * of its own, so starting a server with many tools parses none of them).
 */
export type ToolBinding = { /** Wire name, as in `tools/call`. */ name: string } & (
  ToolValidators | { load: () => Promise<ToolValidators> }
);

/**
 * One tool as a generated server hands it over: its `tools/list` entry as JSON text, served as it
 * is and parsed only when something needs the object (so a server with a thousand tools starts
 * without parsing their schemas), its binding, and the two facts of the entry that start-up needs.
 * The facts must say what the text says; the generator writes both from the same entry.
 */
export type ToolText = ToolBinding & {
  /**
   * The `tools/list` entry, JSON; its `name` is the binding's. Or a function that makes that text,
   * called once, when a page first needs the entry: a server whose tools share large definitions
   * joins each entry from the pieces of its `tool-definitions.ts`.
   */
  text: string | (() => string);
  /** The entry's `execution.taskSupport`, when it is not `forbidden`. */
  taskSupport?: 'optional' | 'required';
  /** Present (false) when the entry's outputSchema is not an object schema (see `ToolEntry.objectOutput`). */
  objectOutput?: false;
};

export interface ResourceReadResult extends JsonObject {
  contents: ResourceContents[];
}
export type ResourceHandler<Context = RequestContext> = (
  uri: string,
  context: Context,
) => ResourceReadResult | Promise<ResourceReadResult>;
/**
 * `variables` holds the values matched from the template's `{name}` placeholders; generated code
 * narrows it to the template's own variable names.
 */
export type ResourceTemplateHandler<
  Variables extends Readonly<Record<string, string>> = Readonly<Record<string, string>>,
  Context = RequestContext,
> = (
  uri: string,
  variables: Variables,
  context: Context,
) => ResourceReadResult | Promise<ResourceReadResult>;

export interface PromptMessage extends JsonObject {
  role: 'user' | 'assistant';
  content: ContentBlock;
}
export interface GetPromptResult extends JsonObject {
  description?: string;
  messages: PromptMessage[];
}
export type PromptHandler<Args, Context = RequestContext> = (
  args: Args,
  context: Context,
) => GetPromptResult | Promise<GetPromptResult>;
