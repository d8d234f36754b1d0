/**
 * The three clients of the matrix behind one small interface, so that a row is written once:
 * our generated client (through its typed methods), the official SDK 1.x client and the SDK 2.x
 * client. Each records the log messages and notifications it receives and what the server asked
 * of it (elicitation, sampling), and answers those requests the same way.
 */
import { Client as Sdk2Client, LOG_LEVEL_META_KEY, StreamableHTTPClientTransport as Sdk2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as Sdk2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as Sdk1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as Sdk1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ClientKind, Era } from './cells.js';
import type { Location } from './servers.js';

export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** A tool call's result, the same for every client. */
export interface ToolOutcome {
  isError: boolean;
  /** The text blocks, joined. */
  text: string;
  structured: unknown;
}

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number | undefined; message?: string | undefined }) => void;
  /** 2026-07-28: the request's `_meta` log level (our client: any era, see rows-client.ts). */
  logLevel?: LoggingLevel;
  /** Put into the request's `_meta`. */
  meta?: Record<string, string>;
}

export interface MatrixClient {
  readonly protocolVersion: string | undefined;
  /** `serverInfo.name` as the client reports it. */
  readonly serverName: string | undefined;
  readonly logs: { level: string; data: unknown }[];
  /** Methods of the notifications received (other than progress and log messages). */
  readonly notifications: string[];
  /** The messages of the elicitation and sampling requests the client answered. */
  readonly asked: string[];
  call(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolOutcome>;
  /** The whole result (our client: the tool method's `.full`; the SDK clients always give it). */
  callFull(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolOutcome>;
  /** The names of every prompt listed (our client: `listPrompts()`, all pages). */
  listPrompts(): Promise<string[]>;
  /** Our generated client itself, for the rows of its own call surface (rows-client.ts). */
  readonly generated?: OurClient;
  /** The first message's text. */
  prompt(name: string, args: Record<string, string>): Promise<string>;
  /** `tools/list`, as a client does after a list change: the SDK clients check results against the listed outputSchemas. */
  listTools(): Promise<void>;
  /** `logging/setLevel` (stateful revisions). */
  setLogLevel(level: LoggingLevel): Promise<void>;
  /** 2026-07-28: opens a `subscriptions/listen` stream for tool-list changes; resolves once acknowledged with a closer. */
  listenToolsChanged(): Promise<() => Promise<void>>;
  /** Every tool name over all pages of `tools/list`, as the client lists them. */
  toolNames(): Promise<string[]>;
  /** Every resource URI over all pages of `resources/list`. */
  resourceUris(): Promise<string[]>;
  /** The text of the first contents of `resources/read`. */
  readText(uri: string): Promise<string>;
  /** Subscribes to `uri` (`resources/subscribe`; `subscriptions/listen` in 2026-07-28); resolves with the unsubscriber. */
  subscribe(uri: string): Promise<() => Promise<void>>;
  /** The URIs of the `notifications/resources/updated` received. */
  readonly updated: string[];
  close(): Promise<void>;
}

export const NAME = 'Ada';
export const GREETING = 'Hello from the model';

function answerElicitation(asked: string[], params: { message?: unknown }): { action: 'accept'; content: { name: string } } {
  asked.push(`elicitation: ${String(params.message)}`);
  return { action: 'accept', content: { name: NAME } };
}

function answerSampling(asked: string[], params: { messages?: readonly { content?: unknown }[] }) {
  const content = params.messages?.[0]?.content;
  asked.push(`sampling: ${textOf(Array.isArray(content) ? content : [content])}`);
  return { role: 'assistant' as const, content: { type: 'text' as const, text: GREETING }, model: 'matrix-model' };
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter((block): block is { type: 'text'; text: string } => typeof block === 'object' && block !== null && block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

function outcomeOf(result: { isError?: unknown; content?: unknown; structuredContent?: unknown }): ToolOutcome {
  return { isError: result.isError === true, text: textOf(result.content), structured: result.structuredContent };
}

/** Connects a client of `kind`; `ours` gives our generated client module (only asked for when used). */
export async function connect(kind: ClientKind, era: Era, location: Location, ours: () => OurClientModule): Promise<MatrixClient> {
  if (kind === 'ours') return connectOurs(ours(), era, location);
  if (kind === 'sdk1') return connectSdk1(location);
  return connectSdk2(era, location);
}

// ---------------------------------------------------------------------------------------------
// Our generated client

/** The parts of a generated client module the matrix uses (typed loosely: two manifests share it). */
export interface OurClientModule {
  connect(options: object): Promise<OurClient>;
  ToolError: new (...args: never[]) => Error & { result: { content?: unknown; isError?: unknown } };
}
export interface OurClient {
  readonly server: { protocolVersion: string; serverInfo: Record<string, unknown> | undefined };
  readonly tools: Record<string, (((input: unknown, options?: object) => Promise<unknown>) & { full(input: unknown, options?: object): Promise<Record<string, unknown>> }) | undefined>;
  listPrompts(): Promise<{ name: string }[]>;
  listen(filter: object, onChange: (change: { method: string; params: Record<string, unknown> }) => void): Promise<() => Promise<void>>;
  ping(): Promise<void>;
  setLogLevel(level: string): Promise<void>;
  readonly prompts: Record<string, ((args: unknown, options?: object) => Promise<{ messages: { content: { text?: string } }[] }>) | undefined>;
  request(method: string, params: unknown, options?: object): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Wire name → the method the generator names after it. */
const OUR_TOOL_METHODS: Record<string, string> = {
  'résumé': 'resume',
  route: 'route',
  count_up: 'countUp',
  sleep: 'sleep',
  was_cancelled: 'wasCancelled',
  chatty: 'chatty',
  interview: 'interview',
  touch_tools: 'touchTools',
  bad_output: 'badOutput',
  trace: 'trace',
  set_tool_enabled: 'setToolEnabled',
  lists_target: 'listsTarget',
  add_note: 'addNote',
  edit_note: 'editNote',
  watched: 'watched',
};
const OUR_PROMPT_METHODS: Record<string, string> = { 'météo': 'meteo' };
/** Tools with an outputSchema: their typed method resolves with the validated structuredContent. */
const STRUCTURED = new Set(['route', 'was_cancelled', 'interview', 'bad_output', 'trace', 'watched']);

/** Every entry's `key` over all pages of a list, following `nextCursor`. */
async function allPages(page: (cursor: string | undefined) => Promise<{ nextCursor?: string | undefined; [field: string]: unknown }>, field: string, key: string): Promise<string[]> {
  const found: string[] = [];
  let cursor: string | undefined;
  do {
    const result = await page(cursor);
    for (const entry of result[field] as Record<string, unknown>[]) found.push(String(entry[key]));
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  return found;
}

function firstText(result: { contents: readonly Record<string, unknown>[] }): string {
  return String(result.contents[0]?.['text']);
}

async function connectOurs(module: OurClientModule, era: Era, location: Location): Promise<MatrixClient> {
  const logs: MatrixClient['logs'] = [];
  const notifications: string[] = [];
  const asked: string[] = [];
  const updated: string[] = [];
  const acknowledged: unknown[] = [];
  const client = await module.connect({
    ...('url' in location ? { url: location.url } : { command: location.command, args: location.args, stderr: 'ignore', shutdownGraceMs: 500 }),
    protocolVersions: [era],
    handlers: {
      elicitation: (params: { message?: unknown }) => answerElicitation(asked, params),
      sampling: (params: { messages?: readonly { content?: unknown }[] }) => answerSampling(asked, params),
    },
    onLog: (message: { level: string; data: unknown }) => logs.push({ level: message.level, data: message.data }),
    onNotification: (method: string, params: Record<string, unknown>) => {
      if (method === 'notifications/subscriptions/acknowledged') acknowledged.push(params);
      else notifications.push(method);
      if (method === 'notifications/resources/updated') updated.push(String(params['uri']));
    },
  });
  /** A 2026-07-28 `subscriptions/listen`, open once acknowledged; resolves with its closer. */
  const listen = async (filter: Record<string, unknown>): Promise<() => Promise<void>> => {
    const controller = new AbortController();
    const before = acknowledged.length;
    const listening = client.request('subscriptions/listen', { notifications: filter }, { signal: controller.signal }).catch(() => undefined);
    await until(() => acknowledged.length > before, 5000, 'notifications/subscriptions/acknowledged for subscriptions/listen');
    return async () => {
      controller.abort();
      await listening;
    };
  };
  const method = <T>(table: Record<string, T | undefined>, kind: string, name: string, methodName: string | undefined): T => {
    const found = methodName === undefined ? undefined : table[methodName];
    if (found === undefined) throw new TypeError(`the generated client has no ${kind}.${methodName ?? '?'} for ${JSON.stringify(name)} (it has ${Object.keys(table).join(', ')})`);
    return found;
  };
  return {
    get protocolVersion() {
      return client.server.protocolVersion;
    },
    get serverName() {
      const name = client.server.serverInfo?.['name'];
      return typeof name === 'string' ? name : undefined;
    },
    logs,
    notifications,
    asked,
    generated: client,
    async call(name, args, options = {}) {
      const callOptions = {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        ...(options.logLevel ? { logLevel: options.logLevel } : {}),
        ...(options.meta ? { _meta: options.meta } : {}),
      };
      const tool = method(client.tools, 'tools', name, OUR_TOOL_METHODS[name]);
      try {
        const value = await tool(args, callOptions);
        return STRUCTURED.has(name) ? { isError: false, text: '', structured: value } : outcomeOf(value as object);
      } catch (error) {
        if (error instanceof module.ToolError) return outcomeOf(error.result);
        throw error;
      }
    },
    async callFull(name, args, options = {}) {
      const tool = method(client.tools, 'tools', name, OUR_TOOL_METHODS[name]);
      return outcomeOf(await tool.full(args, options.meta ? { _meta: options.meta } : {}));
    },
    async listPrompts() {
      return (await client.listPrompts()).map((p) => p.name);
    },
    async prompt(name, args) {
      const prompt = method(client.prompts, 'prompts', name, OUR_PROMPT_METHODS[name]);
      const result = await prompt(args);
      return String(result.messages[0]?.content.text);
    },
    async listTools() {
      await client.request('tools/list', {});
    },
    async setLogLevel(level) {
      await client.setLogLevel(level);
    },
    async listenToolsChanged() {
      return listen({ toolsListChanged: true });
    },
    updated,
    toolNames: () => allPages((cursor) => client.request('tools/list', cursor === undefined ? {} : { cursor }), 'tools', 'name'),
    resourceUris: () => allPages((cursor) => client.request('resources/list', cursor === undefined ? {} : { cursor }), 'resources', 'uri'),
    readText: async (uri) => firstText((await client.request('resources/read', { uri })) as { contents: Record<string, unknown>[] }),
    async subscribe(uri) {
      if (era === '2026-07-28') return listen({ resourceSubscriptions: [uri] });
      await client.request('resources/subscribe', { uri });
      return async () => void (await client.request('resources/unsubscribe', { uri }));
    },
    close: () => client.close(),
  };
}

// ---------------------------------------------------------------------------------------------
// The official SDK 1.x client (2025-11-25)

async function connectSdk1(location: Location): Promise<MatrixClient> {
  const logs: MatrixClient['logs'] = [];
  const notifications: string[] = [];
  const asked: string[] = [];
  const updated: string[] = [];
  const client = new Sdk1Client({ name: 'matrix-sdk1-client', version: '1.0.0' }, { capabilities: { elicitation: {}, sampling: {} } });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updated.push(n.params.uri);
  });
  client.setRequestHandler(ElicitRequestSchema, (request) => answerElicitation(asked, request.params));
  client.setRequestHandler(CreateMessageRequestSchema, (request) => answerSampling(asked, request.params));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push({ level: n.params.level, data: n.params.data });
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => {
    notifications.push(n.method);
  });
  const transport = 'url' in location ? new Sdk1Http(new URL(location.url)) : new Sdk1Stdio({ command: location.command, args: location.args, stderr: 'ignore' });
  // The SDK 1.x client tells only its transport which revision the server chose.
  let negotiated: string | undefined;
  const versioned = transport as { setProtocolVersion?: (version: string) => void };
  const setProtocolVersion = versioned.setProtocolVersion?.bind(transport);
  versioned.setProtocolVersion = (version) => {
    negotiated = version;
    setProtocolVersion?.(version);
  };
  await client.connect(transport);
  // A client lists the tools before calling them; the SDK validates results against the listed outputSchemas.
  await client.listTools();
  return {
    get protocolVersion() {
      return negotiated;
    },
    get serverName() {
      return client.getServerVersion()?.name;
    },
    logs,
    notifications,
    asked,
    async call(name, args, options = {}) {
      const result = await client.callTool({ name, arguments: args, ...(options.meta ? { _meta: options.meta } : {}) }, undefined, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onProgress ? { onprogress: options.onProgress } : {}),
      });
      // The 1.x result type also admits the 2024-11-05 `toolResult` form, which no server here sends.
      return outcomeOf(result as { content?: unknown });
    },
    callFull(name, args, options) {
      // The SDK clients' callTool already resolves with the whole result.
      return (this as MatrixClient).call(name, args, options);
    },
    async listPrompts() {
      return (await client.listPrompts()).prompts.map((p) => p.name);
    },
    async prompt(name, args) {
      const result = await client.getPrompt({ name, arguments: args });
      const content = result.messages[0]?.content;
      return content?.type === 'text' ? content.text : '';
    },
    async listTools() {
      await client.listTools();
    },
    async setLogLevel(level) {
      await client.setLoggingLevel(level);
    },
    listenToolsChanged: () => Promise.reject(new Error('subscriptions/listen is a 2026-07-28 method')),
    updated,
    toolNames: () => allPages((cursor) => client.listTools(cursor === undefined ? {} : { cursor }), 'tools', 'name'),
    resourceUris: () => allPages((cursor) => client.listResources(cursor === undefined ? {} : { cursor }), 'resources', 'uri'),
    readText: async (uri) => firstText(await client.readResource({ uri })),
    async subscribe(uri) {
      await client.subscribeResource({ uri });
      return async () => void (await client.unsubscribeResource({ uri }));
    },
    close: () => client.close(),
  };
}

// ---------------------------------------------------------------------------------------------
// The official SDK 2.x client (2026-07-28 pinned, or its default 2025 handshake)

async function connectSdk2(era: Era, location: Location): Promise<MatrixClient> {
  const logs: MatrixClient['logs'] = [];
  const notifications: string[] = [];
  const asked: string[] = [];
  const client = new Sdk2Client(
    { name: 'matrix-sdk2-client', version: '2.0.0' },
    {
      capabilities: { elicitation: { form: {} }, sampling: {} },
      ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', (request) => answerElicitation(asked, request.params));
  client.setRequestHandler('sampling/createMessage', (request) => answerSampling(asked, request.params));
  client.setNotificationHandler('notifications/message', (n) => {
    logs.push({ level: n.params.level, data: n.params.data });
  });
  client.setNotificationHandler('notifications/tools/list_changed', (n) => {
    notifications.push(n.method);
  });
  const updated: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    updated.push(n.params.uri);
  });
  const transport = 'url' in location ? new Sdk2Http(new URL(location.url)) : new Sdk2Stdio({ command: location.command, args: location.args, stderr: 'ignore' });
  await client.connect(transport);
  await client.listTools();
  return {
    get protocolVersion() {
      return client.getNegotiatedProtocolVersion();
    },
    get serverName() {
      return client.getServerVersion()?.name;
    },
    logs,
    notifications,
    asked,
    async call(name, args, options = {}) {
      const meta = { ...options.meta, ...(options.logLevel !== undefined ? { [LOG_LEVEL_META_KEY]: options.logLevel } : {}) };
      const result = await client.callTool(
        { name, arguments: args, ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) },
        { ...(options.signal ? { signal: options.signal } : {}), ...(options.onProgress ? { onprogress: options.onProgress } : {}) },
      );
      return outcomeOf(result);
    },
    callFull(name, args, options) {
      // The SDK clients' callTool already resolves with the whole result.
      return (this as MatrixClient).call(name, args, options);
    },
    async listPrompts() {
      return (await client.listPrompts()).prompts.map((p) => p.name);
    },
    async prompt(name, args) {
      const result = await client.getPrompt({ name, arguments: args });
      const content = result.messages[0]?.content;
      return content?.type === 'text' ? content.text : '';
    },
    async listTools() {
      await client.listTools();
    },
    async setLogLevel(level) {
      await client.setLoggingLevel(level);
    },
    async listenToolsChanged() {
      const subscription = await client.listen({ toolsListChanged: true });
      return () => subscription.close();
    },
    updated,
    toolNames: () => allPages((cursor) => client.listTools(cursor === undefined ? {} : { cursor }), 'tools', 'name'),
    resourceUris: () => allPages((cursor) => client.listResources(cursor === undefined ? {} : { cursor }), 'resources', 'uri'),
    readText: async (uri) => firstText(await client.readResource({ uri })),
    async subscribe(uri) {
      if (era === '2026-07-28') {
        const subscription = await client.listen({ resourceSubscriptions: [uri] });
        return () => subscription.close();
      }
      await client.subscribeResource({ uri });
      return async () => void (await client.unsubscribeResource({ uri }));
    },
    close: () => client.close(),
  };
}

/** Polls `condition` every 20 ms; rejects naming `what` after `ms`. */
export async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
