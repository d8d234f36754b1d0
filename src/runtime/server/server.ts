/// <reference types="node" />
/**
 * What every connection of one server shares: the definition checked once, the handler tables
 * (server-index.ts), wire payloads serialized once, the validator tables (some loaded on first use).
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
import {
  INITIALIZE,
  STATELESS_REVISION,
  TOOLS_LIST_CHANGED,
  PROMPTS_LIST_CHANGED,
  RESOURCES_LIST_CHANGED,
  RESOURCES_UPDATED,
  methodNames,
  type Offer,
} from '../protocol/methods.js';
import {
  RUNTIME_PROTOCOL_VERSIONS,
  cacheFields,
  checkLimits,
  offeredBy,
  serverInfoFor,
} from './server-settings.js';
import { NO_FEATURES, type Features } from './features.js';
import { nodeCrypto } from '../protocol/lazy-crypto.js';
import { isObject } from '../protocol/jsonrpc.js';
import { definedTools } from './defined-tools.js';
import { ListPages, ListState, WireEntry } from './lists.js';
import { ResourceLists } from './resource-lists.js';
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
import { InMemoryTaskStore, type TaskStore } from './task-store.js';
import type { TaskRun } from '../features/tasks/task-run.js';
import type { BusLink } from './message-bus.js';
import { taskSettings, withTasks, type TaskSettings } from './task-settings.js';
import type { ChangeEvent } from './server-settings.js';
import { loadTable, tableNow, type ValidatorMap } from './validator-tables.js';

export type { MirroredHeader, PromptEntry, TemplateEntry, ToolEntry } from './server-index.js';
// Where the transports read them (index.ts re-exports them from their own modules).
export { STATELESS_REVISION } from '../protocol/methods.js';
export { DEFAULT_HTTP_LIMITS } from './server-settings.js';
export type { ChangeEvent } from './server-settings.js';

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
  /** The request envelope validators; undefined until `loadRequestValidators` has loaded them. */
  validators: ValidatorMap | undefined;
  requestValidatorsLoading: Promise<void> | undefined; // the stdio transport's end waits for it
  /** `initialize`'s validator, which a start needs before the others (`definition.initializeValidator`). */
  readonly initializeValidator: Validator<unknown> | undefined;
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
  private resultValidatorsLoading: Promise<ValidatorMap> | undefined;
  /** The 2026-07-28 envelope validators; undefined until `loadStatelessValidators` has loaded them. */
  statelessValidators: ValidatorMap | undefined;
  private statelessValidatorsLoading: Promise<void> | undefined;
  /** `notifications/message` is sent only when the server declares the logging capability. */
  readonly hasLogging: boolean;
  /** Request methods answered after initialization; anything else is -32601. */
  readonly supportedMethods: ReadonlySet<string>;
  /** What the definition and handlers offer, as the method table's `offer` names it. */
  readonly offered: ReadonlySet<Offer>;
  /** Running handlers by deadline, across every session; undefined when `handlerTimeoutMs` is 0. */
  readonly deadlines: Deadlines | undefined;
  /** Whether any tool may run as a task: the `tasks` capability (2025-11-25) and extension (2026-07-28) are then declared. */
  readonly tasksOffered: boolean;
  readonly taskSettings: TaskSettings;
  /** Where task state lives; `listenHttp({ taskStore })` may replace it before serving. */
  taskStore: TaskStore;
  /** Tasks whose handlers run in this process, by task id. */
  readonly taskRuns = new Map<string, TaskRun>();
  /** Processes sharing sessions without affinity (message-bus.ts); undefined without one. */
  bus: BusLink | undefined = undefined;

  /** The features' side of dispatch (server/features.ts). */
  readonly features: Features;
  /** OpenTelemetry, once `ServerOptions.tracing` turned it on (server/tracing.ts); else undefined. */
  tracing: import('./tracing.js').ServerTracing | undefined = undefined;

  constructor(
    definition: ServerDefinition,
    handlers: ServerHandlers,
    options: ServerOptions,
    features: Features = NO_FEATURES,
  ) {
    this.features = features;
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
    this.validators = tableNow(definition.requestValidators);
    this.initializeValidator = definition.initializeValidator ?? this.validators?.get(INITIALIZE);
    if (this.initializeValidator === undefined && this.validators === undefined)
      throw new Error('A definition that loads its requestValidators needs an initializeValidator');
    this.statelessValidators = tableNow(definition.statelessValidators);

    this.hasLogging = isObject(definition.capabilities['logging']);
    this.offered = offeredBy(definition, handlers, this.tasksOffered);
    this.supportedMethods = new Set(
      methodNames(
        (m) =>
          m.kind === 'client-request' &&
          m.name !== INITIALIZE &&
          m.eras.includes('stateful') &&
          this.offered.has(m.offer ?? 'always'),
      ),
    );

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
    toolsChanged: () => this.announce({ method: TOOLS_LIST_CHANGED, filter: 'toolsListChanged' }),
    promptsChanged: () =>
      this.announce({ method: PROMPTS_LIST_CHANGED, filter: 'promptsListChanged' }),
    resourcesChanged: () =>
      this.announce({
        method: RESOURCES_LIST_CHANGED,
        filter: 'resourcesListChanged',
      }),
    resourceUpdated: (uri: string) =>
      this.announce({
        method: RESOURCES_UPDATED,
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

  /** Loads the request validators once (see `validators`); a failure is kept, and rethrown to every caller. */
  loadRequestValidators(): Promise<void> {
    return (this.requestValidatorsLoading ??= loadTable(this.definition.requestValidators).then(
      (table) => void (this.validators = table),
    ));
  }

  /** Loads the 2026-07-28 validators once, with the request validators (cancellation.ts checks against those). */
  loadStatelessValidators(): Promise<void> {
    return (this.statelessValidatorsLoading ??= Promise.all([
      loadTable(this.definition.statelessValidators),
      this.loadRequestValidators(),
    ]).then(([table]) => void (this.statelessValidators = table)));
  }

  /** The result validators, loaded on the first server→client request and kept. */
  resultValidators(): Promise<ValidatorMap> {
    return (this.resultValidatorsLoading ??= loadTable(this.definition.resultValidators));
  }
}
