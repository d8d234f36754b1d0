/**
 * The definition generated `server.ts` hands `createServer`, and the handlers that come with it:
 * the rest of the contract between generated code and the runtime (re-exported by `api.ts`).
 */
import type {
  JsonObject,
  PromptHandler,
  RequestContext,
  ResourceHandler,
  ResourceTemplateHandler,
  ToolBinding,
  ToolHandler,
  ToolText,
  Validator,
} from '../api.js';
import type { CacheHint, ResourceListHandler, ResourceSubscriptionHooks } from './list-types.js';

/** Everything the runtime needs to know about a server, precomputed by the generator. */
export interface ServerDefinition {
  /** `description`, `websiteUrl` and `icons` are sent only in revisions whose schema has them (2025-11-25 on). */
  serverInfo: {
    name: string;
    version: string;
    title?: string;
    description?: string;
    websiteUrl?: string;
    icons?: JsonObject[];
  };
  instructions?: string;
  /** Revisions this server may negotiate, newest first. */
  protocolVersions: readonly string[];
  /** The `capabilities` object sent in the initialize result. */
  capabilities: JsonObject;
  /** Entries of `tools/list`, in manifest order, exactly as sent on the wire. */
  tools: readonly JsonObject[];
  /** Keyed by wire name. */
  toolBindings: Readonly<Record<string, ToolBinding>>;
  /**
   * The tools as texts with their bindings, in manifest order: what generated servers give, with
   * `tools` and `toolBindings` empty (a definition uses one form or the other).
   */
  toolTexts?: readonly ToolText[];
  resources: readonly JsonObject[];
  resourceTemplates: readonly JsonObject[];
  prompts: readonly JsonObject[];
  /** Page size for the list methods; default 100. */
  pageSize?: number;
  /** URI templates whose resources are listed by a `ResourceListHandler` (`handlers.resourceLists`). */
  listedTemplates?: readonly string[];
  /** 2026-07-28 caching hints per list; a list left out gets `ttlMs: 0`, `cacheScope: "public"`. */
  caching?: Partial<Record<'tools' | 'prompts' | 'resources' | 'resourceTemplates', CacheHint>>;
  /**
   * The manifest's `enum` values, offered by `completion/complete` when no handler answers:
   * by prompt name then argument, and by URI template then variable.
   */
  completionDefaults?: {
    prompts?: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
    resourceTemplates?: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  };
  /**
   * Envelope validators for the client→server messages the runtime handles, keyed by method
   * (`tools/call`, `notifications/cancelled`, …). Each validates the whole JSON-RPC message.
   * Generated from the spec by mcp-gen (`generated/runtime/`) and copied into the output. A request
   * that fails its validator is answered with -32602 (invalid params). Either the table or a
   * function that loads it: generated code passes a dynamic import of
   * `generated/runtime/request-validators.js`, so a start compiles none of them; the table loads
   * with the first message that needs it (usually the one after `initialize`), which waits for it,
   * as do the messages behind it, in order.
   */
  requestValidators: ValidatorTable | (() => Promise<ValidatorTable>);
  /**
   * The validator of `initialize` (`validateInitializeRequest` of
   * `generated/runtime/initialize-validators.js`): the only one a start needs, so generated code
   * imports it eagerly. Without it, `initialize` is checked by `requestValidators.initialize`
   * (loading the table first when it is a function).
   */
  initializeValidator?: Validator<unknown>;
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

/**
 * User code, keyed by wire name. Generated code narrows this with the exact types, and passes its
 * `HandlerContext` as `Context` (the context whose `lists` take only the manifest's names).
 */
export interface ServerHandlers<Context = RequestContext> {
  /**
   * `ToolHandler<any, any>` alone would demand structured results (`[any] extends [never]` is false),
   * so tools without an outputSchema (`ToolHandler<I, never>`) are admitted explicitly.
   */
  tools: Record<string, ToolHandler<any, any, Context> | ToolHandler<any, never, Context>>;
  /** Keyed by resource URI. */
  resources?: Record<string, ResourceHandler<Context>>;
  /** Keyed by URI template. */
  resourceTemplates?: Record<string, ResourceTemplateHandler<any, Context>>;
  /** Keyed by prompt name. */
  prompts?: Record<string, PromptHandler<any, Context>>;
  /** Keyed by URI template: the resources each listed template has now (see `ResourceListHandler`). */
  resourceLists?: Record<string, ResourceListHandler<Context>>;
  /** Start and stop watching a resource as its first subscriber comes and its last goes. */
  resourceSubscriptions?: ResourceSubscriptionHooks;
  /**
   * Completions per argument: keyed by prompt name or URI template, then by argument or template
   * variable name (`completions['plan_outing']['city']`). Tried first; then `complete`; then the
   * manifest's `enum` values starting with what was typed (`definition.completionDefaults`).
   */
  completions?: Record<
    string,
    Record<string, CompletionHandler<any, Context> | undefined> | undefined
  >;
  /** `completion/complete` for anything `completions` does not answer; when absent, the manifest's enums, else no values. */
  complete?: (params: JsonObject, context: Context) => CompletionValues | Promise<CompletionValues>;
  /**
   * The client sent `notifications/roots/list_changed` (stateful revisions): the next
   * `context.listRoots()` on that session sees the new list.
   */
  onRootsListChanged?: (client: {
    sessionId: string | undefined;
    protocolVersion: string;
    clientCapabilities: JsonObject;
  }) => void;
}

/** What a completion handler returns: the values (at most 100 are sent), or them with a total and `hasMore`. */
export type CompletionValues = string[] | { values: string[]; total?: number; hasMore?: boolean };

/**
 * Completes one prompt argument or template variable. `value` is what the user typed so far;
 * `resolved` holds the other arguments already filled in (`context.arguments` of the request).
 */
export type CompletionHandler<Args = Readonly<Record<string, string>>, Context = RequestContext> = (
  value: string,
  resolved: Partial<Args>,
  context: Context,
) => CompletionValues | Promise<CompletionValues>;
