/// <reference types="node" />
/**
 * What every connection of one server shares: the definition checked once, the handler tables
 * (server-index.ts), and the wire payloads that never change serialized once (initialize results
 * per revision at start, each list page when first asked for).
 */
import type {
  JsonObject,
  Notifier,
  ResourceHandler,
  ServerDefinition,
  ServerHandlers,
  ServerLimits,
  ServerOptions,
  Validator,
} from '../api.js';
import { Deadlines } from '../protocol/deadlines.js';
import { nodeCrypto } from '../protocol/lazy-crypto.js';
import { isObject } from '../protocol/jsonrpc.js';
import { definedTools } from '../features/tools/defined-tools.js';
import { ListPages, ListState, WireEntry } from '../features/lists/lists.js';
import { ResourceLists } from '../features/resources/resource-lists.js';
import {
  indexPrompts,
  indexResources,
  indexTemplates,
  indexTools,
  withoutOutputSchema,
  type PromptEntry,
  type TemplateEntry,
  type ToolEntry,
} from './server-index.js';
import { InMemoryTaskStore, type TaskStore } from '../features/tasks/task-store.js';
import type { TaskRun } from '../features/tasks/task-run.js';
import { taskSettings, withTasks, type TaskSettings } from '../features/tasks/task-settings.js';

export type { MirroredHeader, PromptEntry, TemplateEntry, ToolEntry } from './server-index.js';

/** The stateless revision: no initialize, everything a request needs travels in its `_meta`. */
export const STATELESS_REVISION = '2026-07-28';

/** The limits a server has unless its options say otherwise (documented in README.md). */
export const DEFAULT_LIMITS: Readonly<Required<ServerLimits>> = Object.freeze({
  maxMessageBytes: 4 * 1024 * 1024,
  maxDepth: 64,
  maxInFlight: 64,
  handlerTimeoutMs: 5 * 60 * 1000,
});

/** Defaults of the HTTP limits in `HttpOptions` (here, so reading them does not load node:http). */
export const DEFAULT_HTTP_LIMITS = Object.freeze({
  maxSessions: 1000,
  maxHeaderBytes: 16 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
});

/** The protocol revisions this runtime speaks, newest first. */
export const RUNTIME_PROTOCOL_VERSIONS: readonly string[] = [
  STATELESS_REVISION,
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
];

/** A change announced through `Notifier`, as every listening connection receives it. */
export interface ChangeEvent {
  readonly method: string;
  /** The SubscriptionFilter field that opts in to it (2026-07-28 `subscriptions/listen`). */
  readonly filter:
    'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged' | 'resourceSubscriptions';
  readonly uri?: string;
}

export class ServerCore {
  readonly definition: ServerDefinition;
  readonly handlers: ServerHandlers;
  readonly log: (line: string) => void;
  readonly limits: Readonly<Required<ServerLimits>>;
  /** Revisions both this runtime and the definition support, newest first. */
  readonly versions: readonly string[];
  /** `versions` without the stateless revision: what `initialize` may negotiate. */
  readonly statefulVersions: readonly string[];
  /** Whether 2026-07-28 requests are served. */
  readonly stateless: boolean;
  /** The `server/discover` result (without `resultType`, `ttlMs`, `cacheScope` and `_meta`, added per request). */
  readonly discoverResult: string;
  /** `"io.modelcontextprotocol/serverInfo":{…}`, the `_meta` member every 2026-07-28 result carries. */
  readonly serverInfoMember: string;
  /** Signs 2026-07-28 request states; made on first use (see `lazy-crypto.ts`). */
  get stateSecret(): string {
    return (this.secret ??= nodeCrypto().randomBytes(32).toString('base64'));
  }
  private secret: string | undefined;
  /** Connections listening for change announcements. */
  readonly listeners = new Set<(event: ChangeEvent) => void>();
  readonly initializeResults: ReadonlyMap<string, string>;
  readonly validators: ReadonlyMap<string, Validator<unknown>>;
  readonly tools: ReadonlyMap<string, ToolEntry>;
  readonly resources: ReadonlyMap<string, ResourceHandler>;
  readonly templates: readonly TemplateEntry[];
  readonly prompts: ReadonlyMap<string, PromptEntry>;
  readonly toolPages: ListPages;
  /** `toolPages` as the stateful revisions see them: outputSchemas they cannot express left out. */
  readonly statefulToolPages: ListPages;
  readonly resourcePages: ListPages;
  readonly templatePages: ListPages;
  readonly promptPages: ListPages;
  /** Which tools are served: enabled set and per-request filter (`McpServer.tools`). */
  readonly toolList: ListState;
  readonly promptList: ListState;
  /** Templates with a `list` handler, and the subscribe/unsubscribe hooks. */
  readonly resourceLists: ResourceLists;
  /** The 2026-07-28 `"ttlMs":…,"cacheScope":…,` text of each cacheable method (`withResultFields`). */
  readonly cacheFields: ReadonlyMap<string, string>;
  /** What `context.lists` and `McpServer.tools` / `.prompts` hand out. */
  readonly lists: { readonly tools: ListState; readonly prompts: ListState };
  private resultValidatorsLoading: Promise<ReadonlyMap<string, Validator<unknown>>> | undefined;
  /** The 2026-07-28 envelope validators; undefined until `loadStatelessValidators` has loaded them. */
  statelessValidators: ReadonlyMap<string, Validator<unknown>> | undefined;
  private statelessValidatorsLoading: Promise<void> | undefined;
  /** `notifications/message` is sent only when the server declares the logging capability. */
  readonly hasLogging: boolean;
  /** Request methods answered after initialization; anything else is -32601. */
  readonly supportedMethods: ReadonlySet<string>;
  /** Running handlers by deadline, across every session; undefined when `handlerTimeoutMs` is 0. */
  readonly deadlines: Deadlines | undefined;
  /** Whether any tool may run as a task: the `tasks` capability (2025-11-25) and extension (2026-07-28) are then declared. */
  readonly tasksOffered: boolean;
  readonly taskSettings: TaskSettings;
  /** Where task state lives; `listenHttp({ taskStore })` may replace it before serving. */
  taskStore: TaskStore;
  /** Tasks whose handlers run in this process, by task id. */
  readonly taskRuns = new Map<string, TaskRun>();

  constructor(definition: ServerDefinition, handlers: ServerHandlers, options: ServerOptions) {
    this.definition = definition;
    this.handlers = handlers;
    this.log = options.logger ?? ((line) => process.stderr.write(line + '\n'));
    this.limits = checkLimits(options.limits);
    const timeout = this.limits.handlerTimeoutMs;
    this.deadlines = timeout > 0 ? new Deadlines(timeout) : undefined;

    this.versions = definition.protocolVersions.filter((v) =>
      RUNTIME_PROTOCOL_VERSIONS.includes(v),
    );
    if (this.versions.length === 0) {
      throw new Error(
        `None of the definition's protocol versions (${definition.protocolVersions.join(', ')}) is supported by this runtime (${RUNTIME_PROTOCOL_VERSIONS.join(', ')})`,
      );
    }
    this.statefulVersions = this.versions.filter((v) => v !== STATELESS_REVISION);
    this.stateless = this.versions.includes(STATELESS_REVISION);
    this.secret = options.stateSecret;
    const tools = definedTools(definition);
    this.tasksOffered = tools.some((tool) => tool.taskSupport !== 'forbidden');
    this.taskSettings = taskSettings(options.tasks);
    this.taskStore = options.tasks?.store ?? new InMemoryTaskStore();
    // Its `_meta` with serverInfo is added to it like to every 2026-07-28 result (`withResultFields`).
    const discover: JsonObject = {
      supportedVersions: this.versions,
      capabilities: withTasks(definition.capabilities, this.tasksOffered, STATELESS_REVISION),
    };
    if (definition.instructions !== undefined) discover['instructions'] = definition.instructions;
    this.discoverResult = JSON.stringify(discover);
    this.serverInfoMember =
      '"io.modelcontextprotocol/serverInfo":' + JSON.stringify(definition.serverInfo);
    // `extensions` exists in the capabilities of 2026-07-28 only (server/discover above).
    const { extensions: _onlyStateless, ...statefulCapabilities } = definition.capabilities;
    const results = new Map<string, string>();
    for (const version of this.statefulVersions) {
      const result: JsonObject = {
        protocolVersion: version,
        capabilities: withTasks(statefulCapabilities, this.tasksOffered, version),
        serverInfo: serverInfoFor(definition.serverInfo, version),
      };
      if (definition.instructions !== undefined) result['instructions'] = definition.instructions;
      results.set(version, JSON.stringify(result));
    }
    this.initializeResults = results;
    this.validators = new Map(Object.entries(definition.requestValidators));
    const stateless = definition.statelessValidators;
    if (typeof stateless !== 'function')
      this.statelessValidators = new Map(Object.entries(stateless ?? {}));

    const capabilities = definition.capabilities;
    const resources = capabilities['resources'];
    this.hasLogging = isObject(capabilities['logging']);
    const methods = ['ping'];
    if (isObject(capabilities['tools'])) methods.push('tools/list', 'tools/call');
    if (isObject(resources))
      methods.push('resources/list', 'resources/templates/list', 'resources/read');
    if (isObject(resources) && resources['subscribe'] === true)
      methods.push('resources/subscribe', 'resources/unsubscribe');
    if (isObject(capabilities['prompts'])) methods.push('prompts/list', 'prompts/get');
    if (this.hasLogging) methods.push('logging/setLevel');
    if (
      isObject(capabilities['completions']) ||
      handlers.complete !== undefined ||
      handlers.completions !== undefined
    )
      methods.push('completion/complete');
    if (this.tasksOffered) methods.push('tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel');
    this.supportedMethods = new Set(methods);

    this.tools = indexTools(tools, handlers);
    this.resources = indexResources(definition, handlers);
    this.templates = indexTemplates(definition, handlers);
    this.prompts = indexPrompts(definition, handlers);

    const pageSize = definition.pageSize ?? 100;
    if (!Number.isInteger(pageSize) || pageSize < 1)
      throw new Error(`pageSize must be a positive integer, got ${pageSize}`);
    this.toolPages = new ListPages(
      'tools',
      tools.map((tool) => tool.wire),
      pageSize,
    );
    this.statefulToolPages = tools.every((tool) => tool.objectOutput)
      ? this.toolPages
      : new ListPages(
          'tools',
          tools.map(({ name, wire, objectOutput }) =>
            objectOutput ? wire : WireEntry.derived(() => withoutOutputSchema(wire.value), name),
          ),
          pageSize,
        );
    const pages = (field: string, entries: readonly JsonObject[]): ListPages =>
      new ListPages(field, entries.map(WireEntry.ofValue), pageSize);
    this.resourcePages = pages('resources', definition.resources);
    this.templatePages = pages('resourceTemplates', definition.resourceTemplates);
    this.promptPages = pages('prompts', definition.prompts);
    this.toolList = new ListState(
      'tool',
      new Set(this.tools.keys()),
      () => this.notifier.toolsChanged(),
      this.log,
    );
    this.promptList = new ListState(
      'prompt',
      new Set(this.prompts.keys()),
      () => this.notifier.promptsChanged(),
      this.log,
    );
    this.resourceLists = new ResourceLists(definition, handlers, this.log);
    this.cacheFields = cacheFields(definition);
    this.lists = Object.freeze({ tools: this.toolList, prompts: this.promptList });
  }

  /** What handlers (`context.notify`) and the server (`McpServer.notify`) announce changes with. */
  readonly notifier: Notifier = {
    toolsChanged: () =>
      this.announce({ method: 'notifications/tools/list_changed', filter: 'toolsListChanged' }),
    promptsChanged: () =>
      this.announce({ method: 'notifications/prompts/list_changed', filter: 'promptsListChanged' }),
    resourcesChanged: () =>
      this.announce({
        method: 'notifications/resources/list_changed',
        filter: 'resourcesListChanged',
      }),
    resourceUpdated: (uri: string) =>
      this.announce({
        method: 'notifications/resources/updated',
        filter: 'resourceSubscriptions',
        uri,
      }),
  };

  /** Announces a change to every listening connection. */
  announce(event: ChangeEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.log(
          `A change listener failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }

  /** Loads the 2026-07-28 validators once (see `statelessValidators`); a failure is kept, and rethrown to every caller. */
  loadStatelessValidators(): Promise<void> {
    const source = this.definition.statelessValidators;
    this.statelessValidatorsLoading ??= Promise.resolve(
      typeof source === 'function' ? source() : (source ?? {}),
    ).then((table) => {
      this.statelessValidators = new Map(Object.entries(table));
    });
    return this.statelessValidatorsLoading;
  }

  /** The result validators, loaded on the first server→client request and kept. */
  resultValidators(): Promise<ReadonlyMap<string, Validator<unknown>>> {
    const source = this.definition.resultValidators;
    this.resultValidatorsLoading ??= Promise.resolve(
      typeof source === 'function' ? source() : (source ?? {}),
    ).then((table) => new Map(Object.entries(table)));
    return this.resultValidatorsLoading;
  }
}

function checkLimits(given: ServerLimits | undefined): Readonly<Required<ServerLimits>> {
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof ServerLimits)[]) {
    const value = given?.[key];
    if (value === undefined) continue;
    const least = key === 'handlerTimeoutMs' ? 0 : 1;
    if (!Number.isSafeInteger(value) || value < least)
      throw new Error(
        `limits.${key} must be an integer of at least ${least}, got ${String(value)}`,
      );
    limits[key] = value;
  }
  return Object.freeze(limits);
}

/** `description`, `websiteUrl` and `icons` joined `Implementation` in 2025-11-25; older revisions get the rest. */
function serverInfoFor(info: ServerDefinition['serverInfo'], version: string): JsonObject {
  if (version >= '2025-11-25') return info;
  const { description: _d, websiteUrl: _w, icons: _i, ...older } = info;
  return older;
}

/** The caching hints of each cacheable 2026-07-28 result, from the definition (default 0 / public; reads private). */
function cacheFields(definition: ServerDefinition): Map<string, string> {
  const hint = (
    method: string,
    list: keyof NonNullable<ServerDefinition['caching']> | undefined,
    scope: string,
  ): [string, string] => {
    const given = list === undefined ? undefined : definition.caching?.[list];
    const ttlMs = given?.ttlMs ?? 0;
    const cacheScope = given?.cacheScope ?? scope;
    if (!Number.isSafeInteger(ttlMs) || ttlMs < 0)
      throw new Error(
        `caching.${String(list)}.ttlMs must be an integer of at least 0, got ${String(ttlMs)}`,
      );
    if (cacheScope !== 'public' && cacheScope !== 'private')
      throw new Error(`caching.${String(list)}.cacheScope must be "public" or "private"`);
    return [method, `"ttlMs":${ttlMs},"cacheScope":"${cacheScope}",`];
  };
  return new Map([
    hint('server/discover', undefined, 'public'),
    hint('tools/list', 'tools', 'public'),
    hint('prompts/list', 'prompts', 'public'),
    hint('resources/list', 'resources', 'public'),
    hint('resources/templates/list', 'resourceTemplates', 'public'),
    hint('resources/read', undefined, 'private'),
  ]);
}
