/**
 * One client connection's protocol state and the dispatcher: message classification, lifecycle and
 * version negotiation, cancellation, server→client requests, and every method the runtime answers.
 * Transports hand parsed messages to `receive` with an `Outbound` that carries the answers back.
 */
import type {
  ElicitParams,
  ElicitResult,
  InputOptions,
  JsonObject,
  LoggingLevel,
  Notifier,
  RequestContext,
  Validator,
} from './api.js';
import type { DeadlineEntry } from './deadlines.js';
import { McpError } from './errors.js';
import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  MISSING_CAPABILITY,
  NULL_ID,
  RESOURCE_NOT_FOUND,
  TOO_MANY_REQUESTS,
  describeIssues,
  errorMessage,
  idJson,
  idProblem,
  isObject,
  isRequestId,
  jsonOrUndefined,
  notificationMessage,
  quote,
  quoteValue,
  resultMessage,
  type RequestId,
} from './jsonrpc.js';
import { STATELESS_REVISION, type ChangeEvent, type ListPages, type ServerCore, type ToolEntry } from './server.js';
import {
  META_SUBSCRIPTION_ID,
  listenFilterOffered,
  openState,
  sealState,
  type InputState,
  type StatelessMeta,
} from './stateless.js';

/**
 * Where the answers to the messages handed to `Session.receive` go. stdio has one for the whole
 * connection; Streamable HTTP has one per POST.
 */
export interface Outbound {
  /** The answer to the message(s): one response, or a batch's array of responses. Called once. */
  respond(text: string): void;
  /** A notification or server→client request belonging to an in-flight request of this outbound. */
  emit(text: string): void;
  /** Every request of the message(s) ended without a response (cancelled). Called instead of `respond`. */
  abandon(): void;
  /** False when server→client messages cannot reach the client this way (HTTP without SSE). */
  readonly canEmit: boolean;
  /** Streamable HTTP polling: end the response stream now; later messages wait for the client to resume it. */
  closeStream?(retryMs: number): void;
}

/** What `Session.receive` promises the transport. */
export type Delivery = typeof NO_RESPONSE | typeof RESPONSE_PENDING | typeof INVALID_MESSAGE;
/** Only notifications and responses: neither `respond` nor `abandon` will be called. */
export const NO_RESPONSE = 0;
/** `respond` or `abandon` has been or will be called exactly once. */
export const RESPONSE_PENDING = 1;
/** The message was not JSON-RPC at all; its -32600 error has been passed to `respond`. */
export const INVALID_MESSAGE = 2;

const LOG_LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const BATCH_REVISION = '2025-03-26';
const ELICITATION_SINCE = '2025-06-18';
const MAX_COMPLETION_VALUES = 100;
const RESOLVED: Promise<void> = Promise.resolve();
const EMPTY_PARAMS: JsonObject = Object.freeze({});
const NO_ANSWERS: Record<string, JsonObject> = Object.freeze(Object.create(null) as Record<string, JsonObject>);

/**
 * 2026-07-28: an answer of the wrong shape in `inputResponses` counts as no answer (the handler asks
 * again), so a message that fails its validator is judged once more with the answers left out.
 */
function validWithoutAnswers(validate: Validator<unknown>, message: JsonObject): boolean {
  const params = message['params'];
  if (!isObject(params) || !isObject(params['inputResponses'])) return false;
  return validate({ ...message, params: { ...params, inputResponses: {} } });
}

/** A handler waiting for input it will get in a later request: the promise that never settles. */
const NEVER: Promise<never> = new Promise(() => undefined);

/** What a Streamable HTTP session keeps across processes (see SessionStore in session-store.ts). */
export interface SessionSnapshot {
  protocolVersion: string;
  clientCapabilities: JsonObject;
  logThreshold: number;
  subscriptions: string[];
}

const STATE_NEW = 0;
const STATE_INITIALIZED = 1;
const STATE_CLOSED = 2;

interface PendingClientRequest {
  readonly method: string;
  readonly context: Context;
  /** Loading starts when the request is sent, so the table is usually ready when the answer comes. */
  readonly validators: Promise<ReadonlyMap<string, Validator<unknown>>>;
  readonly resolve: (result: JsonObject) => void;
  readonly reject: (error: Error) => void;
}

export class Session {
  readonly core: ServerCore;
  /** The `Mcp-Session-Id` on HTTP; undefined on stdio. */
  readonly id: string | undefined;
  protocolVersion = '';
  private state = STATE_NEW;
  clientCapabilities: JsonObject = EMPTY_PARAMS;
  /** Stateless: the request an input state belongs to (`tools/call:<name>`). */
  private inputTarget = '';
  private logThreshold = 0;
  /** Requests whose handler returned a promise, by the client's id. */
  private readonly inFlight = new Map<RequestId, Context>();
  // The collections below are made on first use: a stateless session lives for one request and
  // most never need them (each empty Map or Set costs about 150 bytes of young-generation churn).
  private pendingClient: Map<number, PendingClientRequest> | undefined = undefined;
  private lastOutgoingId = 0;
  /** Handlers that returned a promise, counted: the stdio reader watches it (see stdio.ts). */
  asyncStarted = 0;
  private idleWaiters: (() => void)[] | undefined = undefined;
  /** True for the one-request sessions of the stateless revision. */
  private stateless = false;
  /** Stateless: the answers to earlier input requests (requestState plus inputResponses). */
  private answers: Record<string, JsonObject> = NO_ANSWERS;
  private inputRound = 0;
  /** Stateless: the input requests the running handler is waiting for, gathered for one result. */
  private pendingInputs: Record<string, JsonObject> | undefined = undefined;
  /** Stateful: resource URIs the client subscribed to. */
  private subscriptions: Set<string> | undefined = undefined;
  /** Stateful: where notifications that belong to no request go (stdio output, the HTTP GET stream). */
  standalone: Outbound | undefined = undefined;
  private changeListener: ((event: ChangeEvent) => void) | undefined = undefined;

  constructor(core: ServerCore, id: string | undefined) {
    this.core = core;
    this.id = id;
  }

  /** A session for one 2026-07-28 request, already checked by `checkStateless`. */
  static stateless(core: ServerCore, meta: StatelessMeta): Session {
    const session = new Session(core, undefined);
    session.stateless = true;
    session.protocolVersion = STATELESS_REVISION;
    session.state = STATE_INITIALIZED;
    session.clientCapabilities = meta.clientCapabilities;
    // Without a logLevel in _meta, a stateless request gets no log messages at all.
    const level = meta.logLevel === undefined ? -1 : LOG_LEVELS.indexOf(meta.logLevel as LoggingLevel);
    session.logThreshold = level === -1 ? LOG_LEVELS.length : level;
    return session;
  }

  /** What a Streamable HTTP session keeps across processes (see SessionStore). */
  snapshot(): SessionSnapshot {
    return {
      protocolVersion: this.protocolVersion,
      clientCapabilities: this.clientCapabilities,
      logThreshold: this.logThreshold,
      subscriptions: this.subscriptions === undefined ? [] : [...this.subscriptions],
    };
  }

  /** A session another process began, rebuilt from its snapshot. */
  static restore(core: ServerCore, id: string, snapshot: SessionSnapshot): Session {
    const session = new Session(core, id);
    session.protocolVersion = snapshot.protocolVersion;
    session.clientCapabilities = snapshot.clientCapabilities;
    session.logThreshold = snapshot.logThreshold;
    if (snapshot.subscriptions.length > 0) session.subscriptions = new Set(snapshot.subscriptions);
    session.state = STATE_INITIALIZED;
    core.listeners.add(session.onChange);
    return session;
  }

  /** This session's change listener, registered once it is initialized. */
  private get onChange(): (event: ChangeEvent) => void {
    return (this.changeListener ??= (event) => this.changed(event));
  }

  get initialized(): boolean {
    return this.state === STATE_INITIALIZED;
  }

  /** True while a handler is running or a server→client request awaits its answer. */
  get busy(): boolean {
    return this.inFlight.size > 0 || (this.pendingClient !== undefined && this.pendingClient.size > 0);
  }

  receive(message: unknown, out: Outbound): Delivery {
    if (typeof message !== 'object' || message === null) {
      return invalid(out, NULL_ID, 'a JSON-RPC message must be an object');
    }
    if (Array.isArray(message)) return this.receiveBatch(message, out);
    return this.receiveOne(message as JsonObject, out);
  }

  /** Resolves once no handler is running. */
  whenIdle(): Promise<void> {
    if (this.inFlight.size === 0) return RESOLVED;
    return new Promise((resolve) => (this.idleWaiters ??= []).push(resolve));
  }

  /**
   * The client is gone or the session ended: pending server→client requests fail and later ones
   * are refused. With `abortHandlers`, running handlers are cancelled as well.
   */
  close(abortHandlers: boolean): void {
    this.state = STATE_CLOSED;
    if (this.changeListener !== undefined) this.core.listeners.delete(this.changeListener);
    const pendingClient = this.pendingClient;
    this.pendingClient = undefined;
    for (const pending of pendingClient?.values() ?? []) {
      pending.reject(new Error(`${pending.method}: the connection to the client closed`));
    }
    if (abortHandlers) {
      for (const context of this.inFlight.values()) context.cancel('The session ended');
    }
  }

  /** The HTTP request behind `out` went away: cancel what it was waiting for. */
  cancelOutbound(out: Outbound): void {
    for (const context of this.inFlight.values()) {
      if (context.out === out || (context.out instanceof BatchOutbound && context.out.parent === out)) {
        context.cancel('The client disconnected');
      }
    }
  }

  private receiveBatch(items: unknown[], out: Outbound): Delivery {
    if (this.protocolVersion !== BATCH_REVISION) {
      const why = this.state === STATE_NEW ? 'before initialization' : `in protocol revision ${this.protocolVersion}`;
      return invalid(out, NULL_ID, `JSON-RPC batches are not supported ${why}`);
    }
    if (items.length === 0) return invalid(out, NULL_ID, 'an empty batch');
    const batch = new BatchOutbound(out);
    for (const item of items) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        batch.expect();
        invalid(batch, NULL_ID, 'each batch entry must be a JSON-RPC message object');
      } else if (this.receiveOne(item as JsonObject, batch) !== NO_RESPONSE) {
        batch.expect();
      }
    }
    return batch.close();
  }

  private receiveOne(message: JsonObject, out: Outbound): Delivery {
    const method = message['method'];
    const id = message['id'];
    if (message['jsonrpc'] !== '2.0') {
      return invalid(out, isRequestId(id) ? idJson(id) : NULL_ID, 'jsonrpc must be "2.0"');
    }
    if (typeof method === 'string') {
      if (id === undefined) {
        this.notification(method, message);
        return NO_RESPONSE;
      }
      if (!isRequestId(id)) return invalid(out, NULL_ID, idProblem(id));
      this.request(method, id, message, out);
      return RESPONSE_PENDING;
    }
    if (method === undefined && ('result' in message || 'error' in message)) {
      if (isRequestId(id)) {
        this.clientResponse(id, message);
        return NO_RESPONSE;
      }
      if (id === null && 'error' in message) {
        this.core.log(`The client reported an error: ${quoteValue(message['error'])}`);
        return NO_RESPONSE;
      }
    }
    return invalid(out, isRequestId(id) ? idJson(id) : NULL_ID, 'not a request, notification or response');
  }

  private request(method: string, id: RequestId, message: JsonObject, out: Outbound): void {
    const idText = idJson(id);
    try {
      if (method === 'initialize') {
        this.initialize(idText, message, out);
        return;
      }
      if (this.state === STATE_NEW && method !== 'ping') {
        out.respond(errorMessage(idText, INVALID_REQUEST, 'Server not initialized: the first request must be initialize'));
        return;
      }
      if (this.inFlight.has(id)) {
        // Answers are matched by id: a second request with the id of a running one could not be told apart.
        out.respond(errorMessage(idText, INVALID_REQUEST, `Invalid Request: id ${quote(idText)} is already used by a request in flight`));
        return;
      }
      if (this.inFlight.size >= this.core.limits.maxInFlight && method !== 'ping') {
        out.respond(
          errorMessage(idText, TOO_MANY_REQUESTS, `Too many requests in flight: at most ${this.core.limits.maxInFlight} at once; retry when one has finished`),
        );
        return;
      }
      // A 2026-07-28 method was checked by `checkStateless` before this session was made.
      if (!this.stateless && !this.core.supportedMethods.has(method)) {
        out.respond(errorMessage(idText, METHOD_NOT_FOUND, `Method not found: ${quote(method)}`));
        return;
      }
      const validators = this.stateless ? this.core.statelessValidators : this.core.validators;
      if (validators === undefined) {
        // The 2026-07-28 validators load with the first request of that revision, which waits for them.
        this.core.loadStatelessValidators().then(
          () => this.request(method, id, message, out),
          (error: unknown) => {
            this.core.log(`Loading the 2026-07-28 request validators failed: ${stackOf(error)}`);
            out.respond(errorMessage(idText, INTERNAL_ERROR, 'Internal error: the request validators could not be loaded'));
          },
        );
        return;
      }
      const validate = validators.get(method);
      if (validate !== undefined && !validate(message) && !(this.stateless && validWithoutAnswers(validate, message))) {
        out.respond(invalidParams(idText, method, validate));
        return;
      }
      if (this.stateless && method === 'server/discover') {
        out.respond(resultMessage(idText, this.core.discoverResult));
        return;
      }
      if (this.stateless && method === 'subscriptions/listen') {
        this.listen(id, idText, paramsOf(message), out);
        return;
      }
      const params = paramsOf(message);
      if (this.stateless && !this.openInputState(idText, method, params, out)) return;
      switch (method) {
        case 'tools/call':
          this.callTool(id, idText, params, out);
          return;
        case 'tools/list':
          return listPage(this.stateless ? this.core.toolPages : this.core.statefulToolPages, idText, params, out);
        case 'ping':
          out.respond(resultMessage(idText, '{}'));
          return;
        case 'resources/subscribe':
        case 'resources/unsubscribe':
          if (typeof params['uri'] === 'string') {
            if (method === 'resources/subscribe') (this.subscriptions ??= new Set()).add(params['uri']);
            else this.subscriptions?.delete(params['uri']);
          }
          out.respond(resultMessage(idText, '{}'));
          return;
        case 'resources/list':
          return listPage(this.core.resourcePages, idText, params, out);
        case 'resources/templates/list':
          return listPage(this.core.templatePages, idText, params, out);
        case 'resources/read':
          return this.readResource(id, idText, params, out);
        case 'prompts/list':
          return listPage(this.core.promptPages, idText, params, out);
        case 'prompts/get':
          return this.getPrompt(id, idText, params, out);
        case 'completion/complete':
          return this.complete(id, idText, params, out);
        case 'logging/setLevel':
          return this.setLogLevel(idText, params, out);
      }
      out.respond(errorMessage(idText, METHOD_NOT_FOUND, `Method not found: ${quote(method)}`));
    } catch (error) {
      this.core.log(`Internal error handling ${method}: ${stackOf(error)}`);
      out.respond(errorMessage(idText, INTERNAL_ERROR, 'Internal error'));
    }
  }

  private initialize(idText: string, message: JsonObject, out: Outbound): void {
    if (this.state !== STATE_NEW) {
      out.respond(errorMessage(idText, INVALID_REQUEST, 'The session is already initialized'));
      return;
    }
    const params = paramsOf(message);
    const requested = params['protocolVersion'];
    if (typeof requested !== 'string') {
      out.respond(
        errorMessage(idText, INVALID_PARAMS, 'Unsupported protocol version', {
          supported: this.core.versions,
          requested: requested === undefined ? null : typeof requested === 'object' && requested !== null ? quoteValue(requested) : requested,
        }),
      );
      return;
    }
    const validate = this.core.validators.get('initialize');
    if (validate !== undefined && !validate(message)) {
      out.respond(invalidParams(idText, 'initialize', validate));
      return;
    }
    if (this.core.statefulVersions.length === 0) {
      out.respond(errorMessage(idText, METHOD_NOT_FOUND, `Method not found: initialize (this server speaks only ${STATELESS_REVISION})`));
      return;
    }
    const version = this.core.statefulVersions.includes(requested) ? requested : this.core.statefulVersions[0]!;
    const capabilities = params['capabilities'];
    this.protocolVersion = version;
    this.clientCapabilities = isObject(capabilities) ? capabilities : EMPTY_PARAMS;
    this.state = STATE_INITIALIZED;
    this.core.listeners.add(this.onChange);
    out.respond(resultMessage(idText, this.core.initializeResults.get(version)!));
  }

  private notification(method: string, message: JsonObject): void {
    if (method !== 'notifications/cancelled' && method !== 'notifications/initialized') return;
    const validate = this.core.validators.get(method);
    if (validate !== undefined && !validate(message)) {
      this.core.log(`Ignoring an invalid ${method} notification: ${describeIssues(validate.errors)}`);
      return;
    }
    // Only checked: requests are served from the initialize response on, initialized or not.
    if (method === 'notifications/initialized') return;
    const params = paramsOf(message);
    const requestId = params['requestId'];
    if (!isRequestId(requestId)) return;
    const reason = params['reason'];
    this.inFlight.get(requestId)?.cancel(typeof reason === 'string' ? reason : 'Cancelled by the client');
  }

  // ---- tools ---------------------------------------------------------------------------------

  private callTool(id: RequestId, idText: string, params: JsonObject, out: Outbound): void {
    const name = params['name'];
    const tool = typeof name === 'string' ? this.core.tools.get(name) : undefined;
    if (tool === undefined) {
      out.respond(errorMessage(idText, INVALID_PARAMS, `Unknown tool: ${quoteValue(name)}`));
      return;
    }
    const args = params['arguments'] === undefined ? {} : params['arguments'];
    if (!tool.validateInput(args)) {
      out.respond(
        toolErrorMessage(idText, `Invalid arguments for tool ${tool.name}: ${describeIssues(tool.validateInput.errors)}`),
      );
      return;
    }
    const context = new Context(this, id, idText, metaOf(params), out);
    context.toolName = tool.name;
    let result: unknown;
    try {
      result = tool.handler(args, context);
    } catch (error) {
      this.toolFailed(context, tool, error);
      return;
    }
    if (isThenable(result)) {
      this.track(context);
      result.then(
        (value) => this.toolFinished(context, tool, value),
        (error: unknown) => this.toolFailed(context, tool, error),
      );
    } else {
      this.toolFinished(context, tool, result);
    }
  }

  private toolFinished(context: Context, tool: ToolEntry, result: unknown): void {
    if (!this.settle(context)) return;
    let text: string;
    try {
      text = this.toolResultMessage(context.idText, tool, result);
    } catch (error) {
      // Only a broken validator gets here; on the async path a throw would be an unhandled rejection.
      this.core.log(`Checking the result of tool ${tool.name} failed: ${stackOf(error)}`);
      text = toolErrorMessage(context.idText, `Tool ${tool.name} returned a result that could not be checked`);
    }
    context.out.respond(text);
  }

  private toolFailed(context: Context, tool: ToolEntry, error: unknown): void {
    if (!this.settle(context)) return;
    this.core.log(`Tool ${tool.name} threw: ${stackOf(error)}`);
    const message = error instanceof Error ? error.message : String(error);
    context.out.respond(toolErrorMessage(context.idText, message === '' ? `Tool ${tool.name} failed` : message));
  }

  /**
   * Output enforcement: a result that breaks the tool's contract is never sent as success; the
   * client gets `isError: true` with one text block saying what was wrong, and the detail is logged.
   */
  private toolResultMessage(idText: string, tool: ToolEntry, result: unknown): string {
    if (!isObject(result)) {
      return this.toolRefused(idText, `Tool ${tool.name} returned ${describeType(result)} instead of a result object`);
    }
    if (result['isError'] === true) {
      const json = jsonOrUndefined(result);
      return json === undefined
        ? this.toolRefused(idText, `Tool ${tool.name} returned an error result that cannot be serialized as JSON`)
        : resultMessage(idText, json);
    }
    const structured = result['structuredContent'];
    // Judged as it will be sent. Plain data (what JSON.parse could have made) is sent as it is and
    // checked as it is; anything JSON.stringify would change (NaN and Infinity become null,
    // undefined and functions vanish, toJSON such as a Date's runs) is checked on its JSON text
    // read back. Reading back every result would cost a parse per call.
    const structuredJson = structured === undefined ? undefined : jsonOrUndefined(structured);
    if (structured !== undefined && structuredJson === undefined) {
      return this.toolRefused(idText, `Tool ${tool.name} returned structured content that is not JSON`);
    }
    if (tool.validateOutput !== undefined) {
      if (structuredJson === undefined) {
        return this.toolRefused(idText, `Tool ${tool.name} declares an outputSchema but returned no structured content`);
      }
      if (!tool.validateOutput(isPlainJson(structured, 0) ? structured : JSON.parse(structuredJson))) {
        return this.toolRefused(
          idText,
          `Tool ${tool.name} returned structured content that does not match its outputSchema: ${describeIssues(tool.validateOutput.errors)}`,
        );
      }
    }
    if (!tool.objectOutput && !this.stateless && structuredJson !== undefined) return this.textOnlyResult(idText, tool, result, structuredJson);
    if (result['content'] === undefined) {
      if (structuredJson === undefined) {
        return this.toolRefused(idText, `Tool ${tool.name} returned neither content nor structuredContent`);
      }
      const meta = result['_meta'] === undefined ? '' : jsonOrUndefined(result['_meta']);
      if (meta === undefined) return this.toolRefused(idText, `Tool ${tool.name} returned a _meta that is not JSON`);
      // The text block is the JSON of the structured content: stringify once, use it twice.
      return (
        '{"jsonrpc":"2.0","id":' +
        idText +
        ',"result":{"content":[{"type":"text","text":' +
        JSON.stringify(structuredJson) +
        '}],"structuredContent":' +
        structuredJson +
        (meta === '' ? '}}' : ',"_meta":' + meta + '}}')
      );
    }
    if (structuredJson === undefined) {
      const json = jsonOrUndefined(result);
      if (json === undefined) return this.toolRefused(idText, `Tool ${tool.name} returned a result that is not JSON`);
      return resultMessage(idText, json);
    }
    // The checked text is the one sent: the rest of the result around it, never stringified twice.
    // Prototype-free, so a handler's own "__proto__" key stays a key.
    const rest = Object.create(null) as JsonObject;
    for (const key of Object.keys(result)) if (key !== 'structuredContent') rest[key] = result[key];
    const restJson = jsonOrUndefined(rest);
    if (restJson === undefined) return this.toolRefused(idText, `Tool ${tool.name} returned a result that is not JSON`);
    return resultMessage(idText, restJson.slice(0, -1) + (restJson === '{}' ? '' : ',') + '"structuredContent":' + structuredJson + '}');
  }

  /**
   * A revision before 2026-07-28 allows only objects as structuredContent: a tool whose output is
   * another JSON value is answered with the value's JSON as text (or the handler's own content).
   */
  private textOnlyResult(idText: string, tool: ToolEntry, result: JsonObject, structuredJson: string): string {
    const { structuredContent: _sent, ...rest } = result;
    if (rest['content'] === undefined) rest['content'] = [{ type: 'text', text: structuredJson }];
    const text = jsonOrUndefined(rest);
    return text === undefined ? this.toolRefused(idText, `Tool ${tool.name} returned a result that is not JSON`) : resultMessage(idText, text);
  }

  private toolRefused(idText: string, message: string): string {
    this.core.log(message);
    return toolErrorMessage(idText, message);
  }

  // ---- resources, prompts, completions -------------------------------------------------------

  private readResource(id: RequestId, idText: string, params: JsonObject, out: Outbound): void {
    const uri = params['uri'];
    if (typeof uri !== 'string') {
      out.respond(errorMessage(idText, INVALID_PARAMS, 'resources/read needs a string uri'));
      return;
    }
    const handler = this.core.resources.get(uri);
    if (handler !== undefined) {
      const context = new Context(this, id, idText, metaOf(params), out);
      this.invoke(context, () => handler(uri, context), resourceResult);
      return;
    }
    for (const template of this.core.templates) {
      const variables = template.matcher.match(uri);
      if (variables !== undefined) {
        const context = new Context(this, id, idText, metaOf(params), out);
        this.invoke(context, () => template.handler(uri, variables, context), resourceResult);
        return;
      }
    }
    // 2026-07-28 (SEP-2164) says invalid params; the stateful revisions use -32002.
    out.respond(errorMessage(idText, this.stateless ? INVALID_PARAMS : RESOURCE_NOT_FOUND, `Resource not found: ${quote(uri)}`, { uri: quote(uri) }));
  }

  private getPrompt(id: RequestId, idText: string, params: JsonObject, out: Outbound): void {
    const name = params['name'];
    const prompt = typeof name === 'string' ? this.core.prompts.get(name) : undefined;
    if (prompt === undefined) {
      out.respond(errorMessage(idText, INVALID_PARAMS, `Unknown prompt: ${quoteValue(name)}`));
      return;
    }
    const args = isObject(params['arguments']) ? params['arguments'] : {};
    for (const required of prompt.requiredArguments) {
      if (args[required] === undefined) {
        out.respond(errorMessage(idText, INVALID_PARAMS, `Missing required argument ${required} for prompt ${quoteValue(name)}`));
        return;
      }
    }
    const context = new Context(this, id, idText, metaOf(params), out);
    this.invoke(context, () => prompt.handler(args, context), promptResult);
  }

  private complete(id: RequestId, idText: string, params: JsonObject, out: Outbound): void {
    const handler = this.core.handlers.complete;
    if (handler === undefined) {
      out.respond(resultMessage(idText, '{"completion":{"values":[]}}'));
      return;
    }
    const context = new Context(this, id, idText, metaOf(params), out);
    this.invoke(context, () => handler(params, context), completionResult);
  }

  private setLogLevel(idText: string, params: JsonObject, out: Outbound): void {
    const threshold = LOG_LEVELS.indexOf(params['level'] as LoggingLevel);
    if (threshold === -1) {
      out.respond(errorMessage(idText, INVALID_PARAMS, `Unknown logging level: ${quoteValue(params['level'])}`));
      return;
    }
    this.logThreshold = threshold;
    out.respond(resultMessage(idText, '{}'));
  }

  /** Runs a non-tool handler: its result becomes the JSON-RPC result, a throw a JSON-RPC error. */
  private invoke(context: Context, call: () => unknown, encode: (value: unknown) => string): void {
    let value: unknown;
    try {
      value = call();
    } catch (error) {
      this.handlerFailed(context, error);
      return;
    }
    if (isThenable(value)) {
      this.track(context);
      value.then(
        (resolved) => this.handlerFinished(context, resolved, encode),
        (error: unknown) => this.handlerFailed(context, error),
      );
    } else {
      this.handlerFinished(context, value, encode);
    }
  }

  private handlerFinished(context: Context, value: unknown, encode: (value: unknown) => string): void {
    if (!this.settle(context)) return;
    let json: string;
    try {
      json = encode(value);
    } catch (error) {
      this.core.log(`A handler returned an invalid result: ${stackOf(error)}`);
      context.out.respond(errorMessage(context.idText, INTERNAL_ERROR, error instanceof Error ? error.message : 'Internal error'));
      return;
    }
    context.out.respond(resultMessage(context.idText, json));
  }

  private handlerFailed(context: Context, error: unknown): void {
    if (!this.settle(context)) return;
    if (error instanceof McpError) {
      context.out.respond(errorMessage(context.idText, error.code, error.message, error.data));
      return;
    }
    this.core.log(`A handler threw: ${stackOf(error)}`);
    const message = error instanceof Error && error.message !== '' ? error.message : 'Internal error';
    context.out.respond(errorMessage(context.idText, INTERNAL_ERROR, message));
  }

  // ---- in-flight bookkeeping -----------------------------------------------------------------

  private track(context: Context): void {
    this.asyncStarted++;
    context.tracked = true;
    this.inFlight.set(context.id, context);
    this.core.deadlines?.add(context);
  }

  /**
   * `limits.handlerTimeoutMs` passed: the handler is cancelled and its request answered with an error.
   * @internal
   */
  expire(context: Context): void {
    if (context.done || context.cancelled) return;
    const reason = `did not finish within ${this.core.limits.handlerTimeoutMs} ms`;
    context.cancel(`The request timed out: the handler ${reason}`, true);
    this.settle(context);
    const name = context.toolName;
    this.core.log(`${name === undefined ? 'A handler' : `Tool ${name}`} ${reason}; its request was answered with an error`);
    context.out.respond(
      name === undefined
        ? errorMessage(context.idText, INTERNAL_ERROR, `Request timed out: the handler ${reason}`)
        : toolErrorMessage(context.idText, `Tool ${name} ${reason}`),
    );
  }

  /** Marks the request finished; false when it was cancelled and must not be answered. */
  private settle(context: Context): boolean {
    if (context.done) return false;
    context.done = true;
    if (context.tracked) {
      this.core.deadlines?.delete(context);
      if (this.inFlight.get(context.id) === context) this.inFlight.delete(context.id);
      if (this.inFlight.size === 0 && this.idleWaiters !== undefined) {
        const waiters = this.idleWaiters;
        this.idleWaiters = undefined;
        for (const wake of waiters) wake();
      }
    }
    return !context.cancelled;
  }

  // ---- what handlers send through their context ----------------------------------------------

  /** @internal */
  sendProgress(context: Context, progress: number, total: number | undefined, message: string | undefined): Promise<void> {
    const token = context.meta?.['progressToken'];
    if (token === undefined || context.done || context.cancelled) return RESOLVED;
    const params: JsonObject = { progressToken: token, progress };
    if (total !== undefined) params['total'] = total;
    if (message !== undefined) params['message'] = message;
    context.out.emit(notificationMessage('notifications/progress', JSON.stringify(params)));
    return RESOLVED;
  }

  /** @internal */
  sendLog(context: Context, level: LoggingLevel, data: unknown, logger: string | undefined): Promise<void> {
    if (!this.core.hasLogging || context.cancelled) return RESOLVED;
    const index = LOG_LEVELS.indexOf(level);
    if (index === -1) return Promise.reject(new Error(`Unknown logging level: ${String(level)}`));
    if (index < this.logThreshold) return RESOLVED;
    const params = logger === undefined ? { level, data } : { level, logger, data };
    const text = jsonOrUndefined(params);
    if (text === undefined) return Promise.reject(new Error('Log data must be serializable as JSON'));
    context.out.emit(notificationMessage('notifications/message', text));
    return RESOLVED;
  }

  /** @internal Sends a server→client request on the context's outbound and waits for the answer. */
  requestClient(
    context: Context,
    method: string,
    capability: string,
    params: JsonObject | undefined,
    options: InputOptions | undefined,
  ): Promise<JsonObject> {
    if (this.stateless) return this.requestInput(context, method, capability, params ?? {}, options?.key);
    const refusal = this.clientRequestRefusal(context, method, capability);
    if (refusal !== undefined) return Promise.reject(new Error(refusal));
    const id = ++this.lastOutgoingId;
    const message: JsonObject = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message['params'] = params;
    const text = jsonOrUndefined(message);
    if (text === undefined) return Promise.reject(new Error(`${method} params must be serializable as JSON`));
    return new Promise<JsonObject>((resolve, reject) => {
      (this.pendingClient ??= new Map()).set(id, { method, context, validators: this.core.resultValidators(), resolve, reject });
      (context.outgoing ??= []).push(id);
      context.out.emit(text);
    });
  }

  // ---- 2026-07-28: input-required results instead of server→client requests -----------------

  /**
   * Reads `requestState` (signed by this server; refused when altered or meant for another
   * request) and `inputResponses` into the answers the handler's input requests resolve from.
   * Answers with -32602 and returns false when either is malformed.
   */
  private openInputState(idText: string, method: string, params: JsonObject, out: Outbound): boolean {
    this.inputTarget = `${method}:${String(params['name'] ?? params['uri'] ?? '')}`;
    const responses = params['inputResponses'];
    const sealed = params['requestState'];
    if (responses !== undefined && !isObject(responses)) {
      out.respond(errorMessage(idText, INVALID_PARAMS, 'Invalid params: inputResponses must be an object'));
      return false;
    }
    if (sealed !== undefined) {
      const state = typeof sealed === 'string' ? openState(sealed, this.core.stateSecret, this.inputTarget) : undefined;
      if (state === undefined) {
        out.respond(errorMessage(idText, INVALID_PARAMS, 'Invalid params: requestState was not issued by this server for this request'));
        return false;
      }
      // Without a prototype, keys such as `__proto__` or `constructor` are plain answer keys.
      this.answers = Object.assign(Object.create(null) as Record<string, JsonObject>, state.answers);
      this.inputRound = state.round;
    }
    if (responses !== undefined) {
      if (this.answers === NO_ANSWERS) this.answers = Object.create(null) as Record<string, JsonObject>;
      for (const [key, value] of Object.entries(responses)) {
        if (isObject(value)) this.answers[key] = value;
      }
    }
    return true;
  }

  private requestInput(context: Context, method: string, capability: string, params: JsonObject, key: string | undefined): Promise<JsonObject> {
    if (context.done || context.cancelled) return Promise.reject(new Error(`${method}: the request it belongs to has already finished`));
    if (!isObject(this.clientCapabilities[capability])) {
      // The request cannot be served without it: -32021 (HTTP 400), whatever the handler does next.
      if (this.settle(context)) {
        context.out.respond(
          errorMessage(context.idText, MISSING_CAPABILITY, `Missing required client capability: ${capability}`, {
            requiredCapabilities: { [capability]: {} },
          }),
        );
      }
      return NEVER;
    }
    const inputKey = key ?? `${capability}-${++context.inputCount}`;
    const answer = Object.hasOwn(this.answers, inputKey) ? this.answers[inputKey] : undefined;
    if (answer === undefined) return this.askInput(context, inputKey, method, params);
    return this.core.resultValidators().then((validators) => {
      const validate = validators.get(method);
      if (validate === undefined || validate(answer)) return answer;
      // An answer of the wrong shape counts as none: ask again.
      delete this.answers[inputKey];
      return this.askInput(context, inputKey, method, params);
    });
  }

  /** Parks the handler (its promise never settles) and answers with every input it asked for. */
  private askInput(context: Context, key: string, method: string, params: JsonObject): Promise<never> {
    const first = this.pendingInputs === undefined;
    (this.pendingInputs ??= {})[key] = { method, params };
    // After the handler's synchronous run and promise reactions, so parallel asks share one result.
    if (first) setImmediate(() => this.flushInputs(context));
    return NEVER;
  }

  private flushInputs(context: Context): void {
    const inputRequests = this.pendingInputs;
    this.pendingInputs = undefined;
    if (inputRequests === undefined || !this.settle(context)) return;
    const state: InputState = { target: this.inputTarget, round: this.inputRound + 1, answers: this.answers };
    const json = jsonOrUndefined(inputRequests);
    if (json === undefined) {
      context.out.respond(errorMessage(context.idText, INTERNAL_ERROR, 'The input request params are not JSON'));
      return;
    }
    context.out.respond(
      resultMessage(
        context.idText,
        '{"resultType":"input_required","inputRequests":' + json + ',"requestState":' + JSON.stringify(sealState(state, this.core.stateSecret)) + '}',
      ),
    );
  }

  // ---- change notifications ------------------------------------------------------------------

  /** 2026-07-28 `subscriptions/listen`: acknowledges, then forwards matching changes until cancelled. */
  private listen(id: RequestId, idText: string, params: JsonObject, out: Outbound): void {
    if (!out.canEmit) {
      out.respond(errorMessage(idText, INVALID_REQUEST, 'subscriptions/listen needs a client that accepts text/event-stream'));
      return;
    }
    const offered = listenFilterOffered(this.core) ?? new Set<string>();
    const asked = isObject(params['notifications']) ? params['notifications'] : {};
    const honoured: JsonObject = {};
    for (const key of offered) {
      const value = asked[key];
      if (key === 'resourceSubscriptions' ? Array.isArray(value) : value === true) honoured[key] = value;
    }
    const uris = new Set(Array.isArray(honoured['resourceSubscriptions']) ? (honoured['resourceSubscriptions'] as unknown[]) : []);
    const context = new Context(this, id, idText, metaOf(params), out);
    this.track(context);
    // A listen stream lasts as long as the client wants: the handler timeout does not apply.
    this.core.deadlines?.delete(context);
    const meta = { [META_SUBSCRIPTION_ID]: id };
    out.emit(notificationMessage('notifications/subscriptions/acknowledged', JSON.stringify({ notifications: honoured, _meta: meta })));
    const listener = (event: ChangeEvent): void => {
      if (context.cancelled || context.done) return;
      if (event.filter === 'resourceSubscriptions' ? !uris.has(event.uri) : honoured[event.filter] !== true) return;
      const body = event.uri === undefined ? { _meta: meta } : { uri: event.uri, _meta: meta };
      out.emit(notificationMessage(event.method, JSON.stringify(body)));
    };
    this.core.listeners.add(listener);
    context.signal.addEventListener('abort', () => this.core.listeners.delete(listener), { once: true });
  }

  /** A stateful session's share of an announced change, on its standalone stream. */
  private changed(event: ChangeEvent): void {
    const out = this.standalone;
    if (out === undefined || this.state !== STATE_INITIALIZED) return;
    if (event.filter === 'resourceSubscriptions') {
      if (event.uri === undefined || this.subscriptions?.has(event.uri) !== true) return;
      out.emit(notificationMessage(event.method, JSON.stringify({ uri: event.uri })));
      return;
    }
    const kind = event.filter === 'toolsListChanged' ? 'tools' : event.filter === 'promptsListChanged' ? 'prompts' : 'resources';
    const capability = this.core.definition.capabilities[kind];
    if (isObject(capability) && capability['listChanged'] === true) out.emit(notificationMessage(event.method, '{}'));
  }

  private clientRequestRefusal(context: Context, method: string, capability: string): string | undefined {
    if (this.state === STATE_CLOSED) return `${method}: the connection to the client is closed`;
    if (!isObject(this.clientCapabilities[capability])) {
      return `${method}: the client did not declare the ${capability} capability`;
    }
    if (capability === 'elicitation' && this.protocolVersion < ELICITATION_SINCE) {
      return `${method}: elicitation needs protocol revision ${ELICITATION_SINCE} or later (negotiated ${this.protocolVersion})`;
    }
    if (context.done || context.cancelled) return `${method}: the request it belongs to has already finished`;
    if (!context.out.canEmit) {
      return `${method}: the client cannot receive server requests on this HTTP request (it does not accept text/event-stream)`;
    }
    return undefined;
  }

  private clientResponse(id: RequestId, message: JsonObject): void {
    const pending = typeof id === 'number' ? this.pendingClient?.get(id) : undefined;
    if (pending === undefined) {
      this.core.log(`Ignoring a response to unknown request id ${quote(idJson(id))}`);
      return;
    }
    this.pendingClient!.delete(id as number);
    const error = message['error'];
    if (error !== undefined) {
      const body = isObject(error) ? error : {};
      const code = typeof body['code'] === 'number' ? body['code'] : INTERNAL_ERROR;
      const text = typeof body['message'] === 'string' ? body['message'] : 'The client answered with an error';
      pending.reject(new McpError(code, text, body['data']));
      return;
    }
    const result = message['result'];
    if (!isObject(result)) {
      pending.reject(new Error(`Invalid ${pending.method} result from the client: not an object`));
      return;
    }
    pending.validators.then(
      (validators) => {
        const validate = validators.get(pending.method);
        if (validate !== undefined && !validate(result)) {
          pending.reject(new Error(`Invalid ${pending.method} result from the client: ${describeIssues(validate.errors)}`));
        } else {
          pending.resolve(result);
        }
      },
      (error: unknown) => pending.reject(new Error(`Could not load the result validators: ${String(error)}`)),
    );
  }

  /** @internal Cancels the server→client requests a cancelled request was waiting for. */
  cancelOutgoing(context: Context, reason: string): void {
    if (context.outgoing === undefined) return;
    for (const id of context.outgoing) {
      const pending = this.pendingClient?.get(id);
      if (pending === undefined) continue;
      this.pendingClient!.delete(id);
      context.out.emit(notificationMessage('notifications/cancelled', JSON.stringify({ requestId: id, reason })));
      pending.reject(new Error(`${pending.method} cancelled: ${reason}`));
    }
    context.outgoing = undefined;
  }
}

/** The `RequestContext` handed to handlers. The AbortController is made only when a handler asks for the signal. */
class Context implements RequestContext, DeadlineEntry {
  readonly id: RequestId;
  readonly idText: string;
  readonly meta: JsonObject | undefined;
  readonly out: Outbound;
  done = false;
  cancelled = false;
  tracked = false;
  /** Ids of server→client requests sent on behalf of this request; made on first use. */
  outgoing: number[] | undefined = undefined;
  /** Input requests made without a key, for their default keys. */
  inputCount = 0;
  /** Set for tools/call: a timeout is then answered as a tool error. */
  toolName: string | undefined = undefined;
  /** The handler timeout's queue (`Deadlines`), while an async handler runs. */
  deadlineAt = 0;
  deadlinePrevious: DeadlineEntry | undefined = undefined;
  deadlineNext: DeadlineEntry | undefined = undefined;
  private readonly session: Session;
  private controller: AbortController | undefined = undefined;
  private cancelReason = '';

  constructor(session: Session, id: RequestId, idText: string, meta: JsonObject | undefined, out: Outbound) {
    this.session = session;
    this.id = id;
    this.idText = idText;
    this.meta = meta;
    this.out = out;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(new Error(this.cancelReason));
    }
    return this.controller.signal;
  }

  get protocolVersion(): string {
    return this.session.protocolVersion;
  }

  get sessionId(): string | undefined {
    return this.session.id;
  }

  get clientCapabilities(): JsonObject {
    return this.session.clientCapabilities;
  }

  get notify(): Notifier {
    return this.session.core.notifier;
  }

  /** @internal Called by the server's `deadlines` when the handler timeout passes. */
  timedOut(): void {
    this.session.expire(this);
  }

  closeStream(retryMs = 1000): void {
    if (!this.done && !this.cancelled) this.out.closeStream?.(retryMs);
  }

  /** The handler sees its signal abort; no response will be sent unless `answered` (a timeout answers itself). */
  cancel(reason: string, answered = false): void {
    if (this.cancelled || this.done) return;
    this.cancelled = true;
    this.cancelReason = reason;
    this.session.cancelOutgoing(this, reason);
    if (!answered) this.out.abandon();
    this.controller?.abort(new Error(reason));
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    return this.session.sendProgress(this, progress, total, message);
  }

  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    return this.session.sendLog(this, level, data, logger);
  }

  elicit(params: ElicitParams, options?: InputOptions): Promise<ElicitResult> {
    return this.session.requestClient(this, 'elicitation/create', 'elicitation', params, options) as Promise<ElicitResult>;
  }

  sample(params: JsonObject, options?: InputOptions): Promise<JsonObject> {
    return this.session.requestClient(this, 'sampling/createMessage', 'sampling', params, options);
  }

  listRoots(options?: InputOptions): Promise<{ roots: { uri: string; name?: string }[] }> {
    return this.session.requestClient(this, 'roots/list', 'roots', undefined, options) as Promise<{
      roots: { uri: string; name?: string }[];
    }>;
  }
}

/** Collects a batch's responses and answers with one array once every request has settled. */
class BatchOutbound implements Outbound {
  readonly parent: Outbound;
  private readonly responses: string[] = [];
  private expected = 0;
  private settled = 0;
  private closed = false;

  constructor(parent: Outbound) {
    this.parent = parent;
  }

  get canEmit(): boolean {
    return this.parent.canEmit;
  }

  expect(): void {
    this.expected++;
  }

  respond(text: string): void {
    this.responses.push(text);
    this.settle();
  }

  abandon(): void {
    this.settle();
  }

  emit(text: string): void {
    this.parent.emit(text);
  }

  close(): Delivery {
    if (this.expected === 0) return NO_RESPONSE;
    this.closed = true;
    if (this.settled === this.expected) this.finish();
    return RESPONSE_PENDING;
  }

  private settle(): void {
    this.settled++;
    if (this.closed && this.settled === this.expected) this.finish();
  }

  private finish(): void {
    if (this.responses.length === 0) this.parent.abandon();
    else this.parent.respond('[' + this.responses.join(',') + ']');
  }
}

function invalid(out: Outbound, idText: string, detail: string): Delivery {
  out.respond(errorMessage(idText, INVALID_REQUEST, `Invalid Request: ${detail}`));
  return INVALID_MESSAGE;
}

function invalidParams(idText: string, method: string, validate: Validator<unknown>): string {
  return errorMessage(idText, INVALID_PARAMS, `Invalid params for ${method}: ${describeIssues(validate.errors)}`);
}

function listPage(pages: ListPages, idText: string, params: JsonObject, out: Outbound): void {
  const cursor = params['cursor'];
  const page = cursor === undefined ? pages.first : typeof cursor === 'string' ? pages.byCursor.get(cursor) : undefined;
  out.respond(page === undefined ? errorMessage(idText, INVALID_PARAMS, 'Invalid cursor') : resultMessage(idText, page));
}

function toolErrorMessage(idText: string, text: string): string {
  return resultMessage(idText, '{"content":[{"type":"text","text":' + JSON.stringify(text) + '}],"isError":true}');
}

function resourceResult(value: unknown): string {
  if (!isObject(value) || !Array.isArray(value['contents'])) throw new Error('The resource handler returned no contents array');
  return JSON.stringify(value);
}

function promptResult(value: unknown): string {
  if (!isObject(value) || !Array.isArray(value['messages'])) throw new Error('The prompt handler returned no messages array');
  return JSON.stringify(value);
}

function completionResult(value: unknown): string {
  if (!isObject(value) || !Array.isArray(value['values'])) throw new Error('The completion handler returned no values array');
  const values = value['values'] as unknown[];
  const completion: JsonObject = { values: values.slice(0, MAX_COMPLETION_VALUES) };
  if (value['total'] !== undefined) completion['total'] = value['total'];
  if (value['hasMore'] !== undefined || values.length > MAX_COMPLETION_VALUES) {
    completion['hasMore'] = values.length > MAX_COMPLETION_VALUES || value['hasMore'] === true;
  }
  return JSON.stringify({ completion });
}

/** Deeper values are read back rather than walked (the walk recurses). */
const MAX_PLAIN_DEPTH = 100;

/**
 * True when JSON.stringify gives back exactly this value: strings, finite numbers, booleans, null,
 * arrays without holes and objects with only own enumerable keys, no toJSON, and the plain prototypes.
 */
function isPlainJson(value: unknown, depth: number): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || depth > MAX_PLAIN_DEPTH) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let i = 0; i < value.length; i++) {
      if (!(i in value) || !isPlainJson(value[i], depth + 1)) return false;
    }
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || !isPlainJson((value as JsonObject)[key], depth + 1)) return false;
  }
  return true;
}

function paramsOf(message: JsonObject): JsonObject {
  const params = message['params'];
  return isObject(params) ? params : EMPTY_PARAMS;
}

function metaOf(params: JsonObject): JsonObject | undefined {
  const meta = params['_meta'];
  return isObject(meta) ? meta : undefined;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'undefined' ? 'nothing' : `a ${typeof value}`;
}

function stackOf(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
