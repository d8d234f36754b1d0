/**
 * The contract between generated server code and the runtime. Generated `server.ts` builds a
 * `ServerDefinition` from the manifest and hands it, with the user's handlers, to `createServer`.
 *
 * The runtime is copied into every output folder and imports nothing but `node:*`, so the wire
 * types it needs are declared here, loosely (index signatures keep unknown fields), rather than
 * imported from the protocol bindings.
 */

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
  | 'debug'
  | 'info'
  | 'notice'
  | 'warning'
  | 'error'
  | 'critical'
  | 'alert'
  | 'emergency';

export interface Annotations extends JsonObject {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent extends JsonObject {
  type: 'text';
  text: string;
  annotations?: Annotations;
}
export interface ImageContent extends JsonObject {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
}
export interface AudioContent extends JsonObject {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
}
export interface ResourceLink extends JsonObject {
  type: 'resource_link';
  uri: string;
  name: string;
  mimeType?: string;
}
export interface TextResourceContents extends JsonObject {
  uri: string;
  mimeType?: string;
  text: string;
}
export interface BlobResourceContents extends JsonObject {
  uri: string;
  mimeType?: string;
  blob: string;
}
export type ResourceContents = TextResourceContents | BlobResourceContents;
export interface EmbeddedResource extends JsonObject {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
}
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

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
 * Everything a handler may do besides returning its result. One API for both protocol eras:
 * in the stateful revisions `elicit`, `sample` and `listRoots` send real server→client requests on
 * the request's own stream; in the stateless 2026-07-28 revision the runtime answers the request
 * with an input-required result instead, and runs the handler again when the client retries with
 * the answers (the handler sees the same promise resolve either way).
 */
export interface RequestContext {
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
  /** What the client declared: at initialize (stateful), or in this request's `_meta` (2026-07-28). */
  readonly clientCapabilities: JsonObject;
  /** Announces changes to every client listening (see `Notifier`). */
  readonly notify: Notifier;
  /** Sends `notifications/progress` when the client asked for progress; otherwise does nothing. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends `notifications/message` when the server declares the logging capability and `level`
   * passes the client's filter (`logging/setLevel`, or `_meta["io.modelcontextprotocol/logLevel"]`
   * in 2026-07-28, where a request without it gets no logs).
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * `elicitation/create`; rejects when the client did not declare the elicitation capability (in
   * 2026-07-28 the request is then answered with -32021). `options.key` names the input in a
   * 2026-07-28 input-required result (default `elicitation-<n>`).
   */
  elicit(params: ElicitParams, options?: InputOptions): Promise<ElicitResult>;
  /** `sampling/createMessage`; as `elicit`, for the sampling capability. */
  sample(params: JsonObject, options?: InputOptions): Promise<JsonObject>;
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

export interface ElicitParams extends JsonObject {
  message: string;
  requestedSchema: JsonObject;
}
export interface ElicitResult extends JsonObject {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

export type ToolHandler<Input, Output> = (
  input: Input,
  context: RequestContext,
) => ToolResult<Output> | Promise<ToolResult<Output>>;

/** One tool as the generated code describes it to the runtime. */
export interface ToolBinding {
  /** Wire name, as in `tools/call`. */
  name: string;
  validateInput: Validator<unknown>;
  /** Present exactly when the tool declares an `outputSchema`. */
  validateOutput?: Validator<unknown>;
}

export interface ResourceReadResult extends JsonObject {
  contents: ResourceContents[];
}
export type ResourceHandler = (
  uri: string,
  context: RequestContext,
) => ResourceReadResult | Promise<ResourceReadResult>;
/**
 * `variables` holds the values matched from the template's `{name}` placeholders; generated code
 * narrows it to the template's own variable names.
 */
export type ResourceTemplateHandler<Variables extends Readonly<Record<string, string>> = Readonly<Record<string, string>>> = (
  uri: string,
  variables: Variables,
  context: RequestContext,
) => ResourceReadResult | Promise<ResourceReadResult>;

export interface PromptMessage extends JsonObject {
  role: 'user' | 'assistant';
  content: ContentBlock;
}
export interface GetPromptResult extends JsonObject {
  description?: string;
  messages: PromptMessage[];
}
export type PromptHandler<Args> = (
  args: Args,
  context: RequestContext,
) => GetPromptResult | Promise<GetPromptResult>;

/** Everything the runtime needs to know about a server, precomputed by the generator. */
export interface ServerDefinition {
  serverInfo: { name: string; version: string; title?: string };
  instructions?: string;
  /** Revisions this server may negotiate, newest first. */
  protocolVersions: readonly string[];
  /** The `capabilities` object sent in the initialize result. */
  capabilities: JsonObject;
  /** Entries of `tools/list`, in manifest order, exactly as sent on the wire. */
  tools: readonly JsonObject[];
  /** Keyed by wire name. */
  toolBindings: Readonly<Record<string, ToolBinding>>;
  resources: readonly JsonObject[];
  resourceTemplates: readonly JsonObject[];
  prompts: readonly JsonObject[];
  /** Page size for the list methods; default 100. */
  pageSize?: number;
  /**
   * Envelope validators for the client→server messages the runtime handles, keyed by method
   * (`tools/call`, `initialize`, `notifications/cancelled`, …). Each validates the whole JSON-RPC
   * message. Generated from the spec by mcp-gen (`generated/runtime/`) and copied into the output.
   * A request that fails its validator is answered with -32602 (invalid params).
   */
  requestValidators: Readonly<Record<string, Validator<unknown>>>;
  /**
   * Validators of the `result` objects clients send back for the server's own requests, keyed by
   * the request's method (`elicitation/create`, `sampling/createMessage`, `roots/list`): the
   * `resultValidators` export of `generated/runtime/result-validators.js`, or a function that loads
   * it. Generated code passes a dynamic import, so a server that never asks its client anything
   * never parses them (they are over a third of the envelope validators' code). A result that
   * fails rejects the handler's `elicit`/`sample`/`listRoots` promise. Optional: without it
   * results are only checked to be objects.
   */
  resultValidators?: ValidatorTable | (() => Promise<ValidatorTable>);
  /**
   * Envelope validators for 2026-07-28 requests (whole messages, `_meta` included), keyed by
   * method: the `statelessValidators` export of `generated/runtime/stateless-validators.js`, or a
   * function that loads it. Generated code passes a dynamic import: the table loads with the first
   * 2026-07-28 request, which waits for it. A request that fails its validator is answered with
   * -32602. Optional: without it, 2026-07-28 requests get only the runtime's own checks.
   */
  statelessValidators?: ValidatorTable | (() => Promise<ValidatorTable>);
}

/** Validators keyed by method. */
export type ValidatorTable = Readonly<Record<string, Validator<unknown>>>;

/** User code, keyed by wire name. Generated code narrows this with the exact types. */
export interface ServerHandlers {
  /**
   * `ToolHandler<any, any>` alone would demand structured results (`[any] extends [never]` is false),
   * so tools without an outputSchema (`ToolHandler<I, never>`) are admitted explicitly.
   */
  tools: Record<string, ToolHandler<any, any> | ToolHandler<any, never>>;
  /** Keyed by resource URI. */
  resources?: Record<string, ResourceHandler>;
  /** Keyed by URI template. */
  resourceTemplates?: Record<string, ResourceTemplateHandler<any>>;
  /** Keyed by prompt name. */
  prompts?: Record<string, PromptHandler<any>>;
  /** `completion/complete`; when absent, completions answer with no values. */
  complete?: (params: JsonObject, context: RequestContext) => { values: string[]; total?: number; hasMore?: boolean } | Promise<{ values: string[]; total?: number; hasMore?: boolean }>;
}

export interface ServerOptions {
  /** Where diagnostics go; the stdio transport must never write them to stdout. Default: stderr. */
  logger?: (line: string) => void;
  /**
   * Key that signs the `requestState` of 2026-07-28 input-required results (HMAC-SHA256), so a
   * client cannot alter it. Default: random per process; give every process behind one load
   * balancer the same secret.
   */
  stateSecret?: string;
  /** Bounds on what one client may make the server do; every field has a default (`DEFAULT_LIMITS`). */
  limits?: ServerLimits;
  /** Tasks (tools with `execution.taskSupport`): lifetimes, poll interval and where their state lives. */
  tasks?: TaskOptions;
}

export interface TaskOptions {
  /** How long a task is kept from its creation when the client asks for no TTL. Default 1 hour. */
  ttlMs?: number;
  /** The longest TTL a 2025-11-25 client may ask for. Default 24 hours. */
  maxTtlMs?: number;
  /** The poll interval suggested to clients. Default 500 ms. */
  pollIntervalMs?: number;
  /** Tasks whose handlers may run at once in this process; a call beyond that is refused with -32000. Default 1000. */
  maxRunning?: number;
  /**
   * Where task state lives (`InMemoryTaskStore` by default). Several processes sharing one store
   * (`connectRedisStores`) answer `tasks/get` for each other's tasks.
   */
  store?: TaskStore;
}

/** Limits of both transports. HTTP adds its own in `HttpOptions`. */
export interface ServerLimits {
  /**
   * The largest message, in bytes of UTF-8: a longer stdio line is dropped and answered with
   * -32600 (id null); on HTTP it is the default of `maxBodyBytes` (413). Default 4 MiB.
   */
  maxMessageBytes?: number;
  /** The deepest nesting of arrays and objects in a message; deeper gets -32600 (id null). Default 64. */
  maxDepth?: number;
  /**
   * Requests whose handlers may run at once on one stdio connection or HTTP session; a request
   * beyond that is answered -32000 at once (ping is always answered). Default 64.
   */
  maxInFlight?: number;
  /**
   * A handler still running after this long is cancelled (its signal aborts) and its request is
   * answered with an error: a tool with `isError: true`, anything else with -32603. 0 disables it.
   * Default 5 minutes.
   */
  handlerTimeoutMs?: number;
}

// ---- tasks ------------------------------------------------------------------------------------
// The store seam's types live here (not in task-store.ts) so this file stays self-contained.

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** One task as stored: era-neutral; task-wire.ts spells it for each revision. */
export interface TaskRecord {
  taskId: string;
  /** Who may see it: `session:<id>` for a stateful session, `stateless` for 2026-07-28 clients. */
  owner: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** Milliseconds from creation the task is kept; null for unlimited. */
  ttlMs: number | null;
  pollIntervalMs: number;
  /** The underlying request's result, once `completed`. */
  result?: JsonObject;
  /** The underlying request's JSON-RPC error, once `failed`. */
  error?: JsonObject;
  /** 2026-07-28: the input requests still waiting for an answer, by key. */
  inputRequests?: Record<string, JsonObject>;
}

export interface TaskStore {
  /** Records (or replaces) a task; it may be forgotten once its TTL has passed. */
  save(record: TaskRecord): Promise<void>;
  /** The task, or undefined for an unknown or expired one. */
  load(taskId: string): Promise<TaskRecord | undefined>;
  /** The owner's tasks, oldest first (2025-11-25 `tasks/list`). */
  list(owner: string): Promise<TaskRecord[]>;
}
