import type { ServiceModel, ToolModel } from '../../model/service-model.js';
import { jsdoc, jsonValueExpression, stringLiteral } from '../../printer/escape.js';
import { propertyKey } from '../../printer/names.js';
import { formatMembers, formatTypeScript, spliceUnits, unitMarker, type UnitMemo, type UnitRun } from '../../printer/format.js';
import { intersectionLayout, pairLayout, propertyLayout, signatureLayout } from './member-layout.js';
import { SourceFile } from '../../printer/source-file.js';
import type { ToolTypeNames } from '../shared/naming.js';

const RUNTIME = './runtime/client/index.js';

/** The output validators' namespace (see NAMESPACES). */
const VALIDATORS = 'outputValidators';

/** Namespace imports: nothing the server names can clash with a name this file declares. */
const NAMESPACES =
  "import type * as P from './protocol.js';\nimport type * as P26 from './protocol-2026-07-28.js';\nimport type * as T from './types.js';\n\n";

/**
 * `client.ts`: the typed `Client` (one method per tool, prompt and resource template), `connect`,
 * and the tool table binding each wire name to its output validator and header mirrors. Server
 * text appears only inside string literals (stringLiteral, JSON.parse) and comments (jsdoc).
 */
export async function clientFile(model: ServiceModel, toolNames: Map<string, ToolTypeNames>, hasValidators: boolean, memo?: UnitMemo): Promise<string> {
  const file = new SourceFile();
  const value = (name: string): string => file.importValue(name, RUNTIME);
  const type = (name: string): string => file.importType(name, RUNTIME);
  const callOptions = type('CallOptions');
  const marker = (name: string): string => (model.tools.length === 0 ? '' : `${unitMarker(name)}\n`);
  const parts: Parts = { file, value, type, callOptions, marker };

  // The output validators by namespace: no import line names a tool, so adding one changes no import.
  const withValidators = hasValidators && model.tools.some((t) => t.outputSchema !== undefined);
  pushHeader(parts, withValidators);

  // Each tool's members of ToolCalls, TaskCalls, FullToolCalls and ToolMethods: one unit per tool
  // (they hold its description and its input's requiredness), formatted alone and cached.
  const taskTools = model.tools.filter(runsAsTask);
  const units = await toolMemberUnits(model, toolNames, callOptions, taskTools.length > 0 ? { options: type('TaskOptions'), handle: type('TaskHandle') } : undefined, withValidators, memo);
  file.push(jsdoc('Every tool, keyed by wire name: the input it takes and what the call resolves with.'), 'export type ToolCalls = {\n', marker('tool-calls'), '};\n\n');
  if (taskTools.length > 0) {
    file.push(
      jsdoc([
        'Tools that may run as tasks: `client.tools.<name>.task(input, options)` starts one and resolves with',
        'a handle (`status()`, `result()` validated like a plain call, `cancel()`).',
      ]),
      'export type TaskCalls = {\n',
      marker('task-calls'),
      '};\n\n',
    );
  }
  file.push(jsdoc('The same calls resolving with the whole result (`.full` of each tool method); an `isError` result resolves too.'), 'export type FullToolCalls = {\n', marker('full-tool-calls'), '};\n\n');

  pushInterfaces(parts, model);
  pushConnect(parts, model, taskTools);
  const skeleton = await formatTypeScript(file.toString(), memo);
  const run = (part: string): UnitRun => ({ units: units.flatMap((u) => (u.get(part) ? [u.get(part) as string] : [])), indent: 2, separator: '' });
  return spliceUnits(
    skeleton,
    new Map([
      ['tool-calls', run('calls')],
      ['task-calls', run('taskCalls')],
      ['full-tool-calls', run('fullCalls')],
      ['tool-methods', run('methods')],
      ['tool-rows', run('rows')],
      ['tool-entries', run('entries')],
    ]),
  );
}

/** The file being built and how its parts name what they import from the runtime. */
interface Parts {
  file: SourceFile;
  value: (name: string) => string;
  type: (name: string) => string;
  /** The runtime's CallOptions type, as imported. */
  callOptions: string;
  /** Where a run of per-tool units goes (nothing without tools). */
  marker: (name: string) => string;
}

/** The namespace imports, re-exports, handler and connect-option types, and the revision helpers. */
function pushHeader({ file, type, callOptions }: Parts, withValidators: boolean): void {
  file.push(
    NAMESPACES,
    withValidators ? `import * as ${VALIDATORS} from './validators.js';\n\n` : '',
    `export { ConnectionClosedError, ListCache, McpError, OutputValidationError, RequestTimeoutError, TaskCancelledError, ToolError } from ${stringLiteral(RUNTIME)};\n`,
    `export type { CallOptions, ChangeNotification, ListenFilter, LoggingLevel, RequestMeta, Server, ServerLocation, StopListening, TaskHandle, TaskOptions, TaskStatus } from ${stringLiteral(RUNTIME)};\n\n`,
    jsdoc('What the server may ask of this client. Each handler you give declares its capability; without it the server is told the client cannot.'),
    'export interface Handlers {\n',
    '  /** A function answers form mode only; `{ form, url }` declares each mode given (`elicitation.form` / `elicitation.url`). */\n',
    "  elicitation?: ElicitationHandler<P.ElicitRequestFormParams> | { form?: ElicitationHandler<P.ElicitRequestFormParams>; url?: ElicitationHandler<P.ElicitRequestURLParams> };\n",
    '  /** `{ createMessage, tools: true }` declares `sampling.tools` (tool-enabled sampling), `context: true` declares `sampling.context`. */\n',
    "  sampling?: SamplingHandler | { createMessage: SamplingHandler; tools?: boolean; context?: boolean };\n",
    '  /** `{ list, listChanged: true }` declares `roots.listChanged`; send it with `client.session.rootsChanged()`. */\n',
    '  roots?: RootsHandler | { list: RootsHandler; listChanged?: boolean };\n',
    '}\n',
    "type ElicitationHandler<Params> = (params: Params, context: { signal: AbortSignal }) => P.ElicitResult | Promise<P.ElicitResult>;\n",
    "type SamplingHandler = (params: P.CreateMessageRequest['params'], context: { signal: AbortSignal }) => P.CreateMessageResult | Promise<P.CreateMessageResult>;\n",
    'type RootsHandler = (context: { signal: AbortSignal }) => P.ListRootsResult | Promise<P.ListRootsResult>;\n\n',
    jsdoc('The protocol revisions the client can negotiate.'),
    "export type Revision = '2026-07-28' | '2025-11-25' | '2025-06-18' | '2025-03-26' | '2024-11-05';\n\n",
    jsdoc([
      'The requests of a revision, by method: 2026-07-28 has its own map; the stateful revisions share',
      '2025-11-25\'s, of which the older ones speak a subset. For a union of revisions, the methods all',
      'of them have, with their params and results joined.',
    ]),
    "export type RequestsOf<V extends Revision> = V extends '2026-07-28' ? P26.ClientRequests : P.ClientRequests;\n",
    '/** The runtime fills in the `_meta` that 2026-07-28 requires (revision, capabilities, client info): optional here. */\n',
    "type MetaOptional<X> = X extends { _meta: infer Meta } ? { [K in keyof X as K extends '_meta' ? never : K]: X[K] } & { _meta?: Partial<Meta> } : X;\n",
    "type ParamsOf<V extends Revision, M> = RequestsOf<V> extends infer R ? (R extends { [K in M & string]: { params: infer X } } ? MetaOptional<X> : never) : never;\n",
    "type ResultOf<V extends Revision, M> = RequestsOf<V> extends infer R ? (R extends { [K in M & string]: { result: infer X } } ? X : never) : never;\n\n",
    jsdoc('Where the server is (`{ url, headers }` or `{ command, args, env, cwd }`) and how this client presents itself.'),
    `export type ConnectOptions<V extends Revision = Revision> = ${type('ServerLocation')} & {\n`,
    '  clientInfo?: { name: string; version: string };\n',
    '  handlers?: Handlers;\n',
    '  /** Revisions to offer, newest first (default: all of them). The client\'s `request` is typed by these. */\n',
    '  protocolVersions?: readonly V[];\n',
    '  /** Server notifications other than progress (list changes, …; log messages too unless `onLog` is given). */\n',
    '  onNotification?: (method: string, params: { [key: string]: unknown }) => void;\n',
    '  /** Log messages (`notifications/message`), at the level asked with `setLogLevel` or a call\'s `logLevel`. */\n',
    `  onLog?: (message: { level: ${type('LoggingLevel')}; logger?: string; data: unknown }) => void;\n`,
    '  /** `capabilities.extensions`: the extensions this client supports, by identifier, with their settings (`{}` for none). */\n',
    '  extensions?: { readonly [id: string]: { [key: string]: unknown } };\n',
    '  /** Keep list pages while the server\'s `ttlMs`/`cacheScope` allow (2026-07-28): `true`, or a `ListCache` shared by several connections. */\n',
    `  listCache?: boolean | ${type('ListCache')};\n`,
    '  /** The authorization context of `private` cached pages (default: this connection alone). */\n',
    '  cacheContext?: string;\n',
    '  /** How long `connect` waits for the server to answer its handshake (default 60 s; a sign-in in a browser is not counted). */\n',
    '  connectTimeoutMs?: number;\n',
    '};\n\n',
    jsdoc([
      'The whole result of a tool call: `content`, `_meta`, `isError` and `structuredContent`, which',
      'for a tool with an outputSchema is validated and typed as its output unless `isError` is true.',
    ]),
    "export type FullResult<Output> = (P.CallToolResult & { isError?: false; structuredContent: Output }) | (P.CallToolResult & { isError: true });\n\n",
    jsdoc('`ping` where the revisions `V` all have it; 2026-07-28 has none (never: calling it does not compile).'),
    `export type PingMethod<V extends Revision> = [V] extends ['2026-07-28'] ? never : (options?: ${callOptions}) => Promise<void>;\n\n`,
  );
}

/** ToolMethods, PromptMethods, the resource interfaces and `Client`. */
function pushInterfaces({ file, type, callOptions, marker }: Parts, model: ServiceModel): void {
  file.push(
    jsdoc([
      'One method per tool, named after it. A tool with an outputSchema resolves with its validated',
      '`structuredContent` (or rejects with `OutputValidationError`); one without resolves with the',
      'whole `CallToolResult`. An `isError` result rejects with `ToolError`. Each method\'s `.full`',
      'resolves with the whole result instead (`FullResult`), `isError` results included.',
    ]),
    'export interface ToolMethods {\n',
    marker('tool-methods'),
    '}\n\n',
    jsdoc('One method per prompt, named after it; the arguments are typed from the prompt\'s list.'),
    'export interface PromptMethods {\n',
    ...model.prompts.map((prompt) => {
      const optional = prompt.arguments.some((a) => a.required) ? '' : '?';
      return `${jsdoc(describe(prompt.wire, prompt.name), '  ')}  readonly ${prompt.ids.camel}: (args${optional}: T.${prompt.ids.pascal}Arguments, options?: ${callOptions}) => Promise<P.GetPromptResult>;\n`;
    }),
    '}\n\n',
    jsdoc('Resource templates, one method each: the variables expand the template into the URI that is read.'),
    'export interface ResourceTemplateMethods {\n',
    ...model.resourceTemplates.map((template) => {
      const variables = [...new Set(template.variables)].map((v) => `readonly ${propertyKey(v)}: string`).join('; ');
      return `${jsdoc(describe(template.wire, template.uriTemplate), '  ')}  readonly ${template.ids.camel}: (variables: { ${variables} }, options?: ${callOptions}) => Promise<P.ReadResourceResult>;\n`;
    }),
    '}\n\n',
    'export interface ResourceMethods {\n',
    `  /** Every resource the server lists now (all pages). */\n  list(options?: ${callOptions}): Promise<P.Resource[]>;\n`,
    `  /** Every resource template the server lists now (all pages). */\n  listTemplates(options?: ${callOptions}): Promise<P.ResourceTemplate[]>;\n`,
    `  read(uri: ${model.resources.length > 0 ? 'T.ResourceUri | (string & {})' : 'string'}, options?: ${callOptions}): Promise<P.ReadResourceResult>;\n`,
    '  readonly templates: ResourceTemplateMethods;\n',
    '}\n\n',
    jsdoc([
      'A connected client. Close it when done: a stdio server is then shut down, an HTTP session ended.',
      '`V` is the revisions it was allowed to negotiate (`protocolVersions`); the negotiated one is among them.',
    ]),
    'export interface Client<V extends Revision = Revision> {\n',
    `  /** The negotiated revision and what the server said about itself. */\n  readonly server: ${type('Server')} & { readonly protocolVersion: V };\n`,
    '  readonly tools: ToolMethods;\n',
    '  readonly prompts: PromptMethods;\n',
    '  readonly resources: ResourceMethods;\n',
    '  /** A tool by wire name; the same as its method under `tools`. */\n',
    '  callTool<K extends keyof ToolCalls>(name: K, ...args: Parameters<ToolCalls[K]>): ReturnType<ToolCalls[K]>;\n',
    '  /**\n',
    '   * Any tool by wire name, also one the server added after this client was generated: resolves with\n',
    '   * its `structuredContent` when it declares an outputSchema (a known tool\'s validated; a tool listed by\n',
    '   * `listTools()` since, present), else the whole result; `isError` rejects with `ToolError`.\n',
    '   */\n',
    `  callToolByName(name: string, input?: { [key: string]: unknown }, options?: ${callOptions}): Promise<unknown>;\n`,
    `  /** Every tool the server lists now (all pages), as it describes them. */\n  listTools(options?: ${callOptions}): Promise<P.Tool[]>;\n`,
    `  /** Every prompt the server lists now (all pages). */\n  listPrompts(options?: ${callOptions}): Promise<P.Prompt[]>;\n`,
    '  /**\n',
    '   * Calls `onChange` for each change the filter names until the returned function is called: a\n',
    '   * 2026-07-28 `subscriptions/listen` (resolves once acknowledged), or in the stateful revisions the\n',
    '   * session\'s own list-changed notifications and `resources/subscribe` per URI (resolves once subscribed).\n',
    '   */\n',
    `  listen(filter: ${type('ListenFilter')}, onChange: (change: ${type('ChangeNotification')}) => void, options?: ${callOptions}): Promise<${type('StopListening')}>;\n`,
    '  /** The log level of what follows: `logging/setLevel` in the stateful revisions; at 2026-07-28 the default `logLevel` of every later request. */\n',
    `  setLogLevel(level: ${type('LoggingLevel')}, options?: ${callOptions}): Promise<void>;\n`,
    '  /** `ping` (stateful revisions only: at 2026-07-28 it rejects, naming the revision). */\n',
    '  readonly ping: PingMethod<V>;\n',
    `  /** Any request of the revisions \`V\`, typed by its method (pin \`protocolVersions\` for one revision's exact map). */\n  request<M extends keyof RequestsOf<V>>(method: M, params: ParamsOf<V, M>, options?: ${callOptions}): Promise<ResultOf<V, M>>;\n`,
    `  /** The protocol session underneath, for tools known only at run time and other requests the methods above do not cover. */\n  readonly session: ${type('ClientSession')};\n`,
    '  close(): Promise<void>;\n',
    '}\n\n',
  );
}

/** The tool table (wire name → validator and header mirrors) and `connect`. */
function pushConnect({ file, value, type, callOptions, marker }: Parts, model: ServiceModel, taskTools: readonly ToolModel[]): void {
  // The tool table: wire name → validator and header mirrors. Own entries of a Map, never object keys.
  const binding = type('ClientToolBinding');
  file.push(`const TOOLS: ReadonlyMap<string, ${binding}> = new Map<string, ${binding}>([\n`, marker('tool-rows'), ']);\n\n');

  const callTool = value('callTool');
  const listAll = value('listAll');
  const requestWith = value('requestWith');
  file.push(
    jsdoc([
      'Connects (spawning the server for `{ command }`), negotiates the newest revision both sides speak,',
      'and returns the typed client. Nothing is listed first: every call validates on its own.',
    ]),
    'export async function connect<V extends Revision = Revision>(options: ConnectOptions<V>): Promise<Client<V>> {\n',
    `  const session = await ${value('openSession')}(options as unknown as Parameters<typeof ${value('openSession')}>[0]);\n`,
    `  const cache = ${value('listCacheFor')}(session, options as unknown as Parameters<typeof ${value('listCacheFor')}>[1]);\n`,
    '  // Tools seen by listTools(), for callToolByName on a tool this client was not generated with.\n',
    `  const listed = new Map<string, ${binding}>();\n`,
    // Each helper only when something uses it: strict settings refuse unused locals.
    model.tools.length === 0
      ? ''
      : `  const tool = (name: string, more: object = {}) => {\n    const binding = TOOLS.get(name) as ${binding};\n    const full = (input?: unknown, callOptions?: ${callOptions}) => ${value('callToolFull')}(session, binding, input, callOptions);\n    return Object.freeze(Object.assign((input?: unknown, callOptions?: ${callOptions}) => ${callTool}(session, binding, input, callOptions), { full }, more));\n  };\n`,
    model.prompts.length === 0
      ? ''
      : `  const prompt = (name: string) => (args?: unknown, callOptions?: ${callOptions}) =>\n    ${requestWith}(session, 'prompts/get', { name, arguments: (args ?? {}) as { [key: string]: unknown } }, callOptions);\n`,
    `  const read = (uri: string, callOptions?: ${callOptions}) => ${requestWith}(session, 'resources/read', { uri }, callOptions);\n`,
    model.resourceTemplates.length === 0
      ? ''
      : `  const template = (uriTemplate: string) => (variables: Readonly<Record<string, string>>, callOptions?: ${callOptions}) =>\n    read(${value('expandUriTemplate')}(uriTemplate, variables), callOptions);\n`,
    taskTools.length === 0
      ? ''
      : `  const taskTool = (name: string) => {\n    const binding = TOOLS.get(name) as ${binding};\n    // One frozen function per tool, its .full and (here) .task beside it.\n    return tool(name, { task: (input?: unknown, taskOptions?: ${type('TaskOptions')}) => ${value('startToolTask')}(session, binding, input, taskOptions) });\n  };\n`,
    '  const tools = Object.freeze({\n',
    marker('tool-entries'),
    '  });\n',
    '  const prompts = Object.freeze({\n',
    ...model.prompts.map((p) => `    ${p.ids.camel}: prompt(${stringLiteral(p.name)}),\n`),
    '  });\n',
    '  const templates = Object.freeze({\n',
    ...model.resourceTemplates.map((t) => `    ${t.ids.camel}: template(${stringLiteral(t.uriTemplate)}),\n`),
    '  });\n',
    '  const client = {\n',
    '    server: session.server,\n',
    '    session,\n',
    '    tools,\n',
    '    prompts,\n',
    '    resources: Object.freeze({\n',
    `      list: (callOptions?: ${callOptions}) => ${listAll}(session, 'resources/list', 'resources', callOptions, cache),\n`,
    `      listTemplates: (callOptions?: ${callOptions}) => ${listAll}(session, 'resources/templates/list', 'resourceTemplates', callOptions, cache),\n`,
    '      read,\n',
    '      templates,\n',
    '    }),\n',
    `    callTool: (name: string, input?: unknown, callOptions?: ${callOptions}) => {\n`,
    '      const binding = TOOLS.get(name);\n',
    '      if (binding === undefined) return Promise.reject(new TypeError(`Unknown tool ${JSON.stringify(name)}`));\n',
    `      return ${callTool}(session, binding, input, callOptions);\n`,
    '    },\n',
    `    callToolByName: (name: string, input?: unknown, callOptions?: ${callOptions}) => ${value('callToolByName')}(session, TOOLS, listed, name, input, callOptions),\n`,
    `    listTools: (callOptions?: ${callOptions}) => ${value('rememberListedTools')}(${listAll}(session, 'tools/list', 'tools', callOptions, cache), listed),\n`,
    `    listPrompts: (callOptions?: ${callOptions}) => ${listAll}(session, 'prompts/list', 'prompts', callOptions, cache),\n`,
    `    listen: (filter: ${type('ListenFilter')}, onChange: (change: ${type('ChangeNotification')}) => void, callOptions?: ${callOptions}) =>\n      ${value('listen')}(session, filter, onChange, callOptions),\n`,
    `    setLogLevel: (level: ${type('LoggingLevel')}, callOptions?: ${callOptions}) => ${value('setLogLevel')}(session, level, callOptions),\n`,
    `    ping: (callOptions?: ${callOptions}) => ${value('ping')}(session, callOptions),\n`,
    `    request: (method: string, params?: unknown, callOptions?: ${callOptions}) =>\n`,
    `      ${requestWith}(session, method, (params ?? {}) as { [key: string]: unknown }, callOptions),\n`,
    '    close: () => session.close(),\n',
    '  };\n',
    '  // The methods are built from the table above; their precise types come from the interfaces.\n',
    '  return Object.freeze(client) as unknown as Client<V>;\n',
    '}\n',
  );
}

/**
 * Each tool's members of ToolCalls, TaskCalls, FullToolCalls, ToolMethods, the TOOLS table and the
 * `tools` object, formatted as one unit per tool (see formatMembers), by part name.
 */
async function toolMemberUnits(
  model: ServiceModel,
  toolNames: Map<string, ToolTypeNames>,
  callOptions: string,
  task: { options: string; handle: string } | undefined,
  withValidators: boolean,
  memo: UnitMemo | undefined,
): Promise<Map<string, string>[]> {
  // All at once, so the formatter can batch the units that missed (see formatUnit).
  return Promise.all(
    model.tools.map((tool) => {
      const names = toolNames.get(tool.name) as ToolTypeNames;
      const key = stringLiteral(tool.name);
      const entry = `T.Tools[${key}]`;
      const output = names.output === undefined ? 'P.CallToolResult' : `${entry}["output"]`;
      const fullOutput = names.output === undefined ? 'P.CallToolResult' : `FullResult<${entry}["output"]>`;
      const optional = hasRequiredInput(tool) ? '' : '?';
      const asTask = task !== undefined && runsAsTask(tool);
      const row = [`name: ${key}`];
      if (names.validateOutput !== undefined && withValidators) row.push(`validateOutput: ${VALIDATORS}.${names.validateOutput}`);
      if (tool.headers !== undefined && tool.headers.length > 0) row.push(`headers: ${jsonValueExpression(tool.headers)}`);
      const name = propertyKey(tool.name);
      const doc = toolDoc(tool, '  ');
      const input = `input${optional}: ${entry}["input"]`;
      const methodType = `ToolCalls[${key}] & { readonly full: FullToolCalls[${key}] }${asTask ? ` & { readonly task: TaskCalls[${key}] }` : ''}`;
      const rowObject = `{ ${row.join(', ')} }`;
      const entryValue = `${asTask ? 'taskTool' : 'tool'}(${key})`;
      return formatMembers(
        [
          {
            name: 'calls',
            kind: 'interface',
            code: `${doc}  ${name}: (${input}, options?: ${callOptions}) => Promise<${output}>;\n`,
            laidOut: signatureLayout(doc, name, [input, `options?: ${callOptions}`], `Promise<${output}>`),
          },
          {
            name: 'taskCalls',
            kind: 'interface',
            code: asTask ? `${doc}  ${name}: (${input}, options?: ${task.options}) => Promise<${task.handle}<${output}>>;\n` : '',
            laidOut: asTask ? signatureLayout(doc, name, [input, `options?: ${task.options}`], `Promise<${task.handle}<${output}>>`) : undefined,
          },
          {
            name: 'fullCalls',
            kind: 'interface',
            code: `  ${name}: (${input}, options?: ${callOptions}) => Promise<${fullOutput}>;\n`,
            laidOut: signatureLayout('', name, [input, `options?: ${callOptions}`], `Promise<${fullOutput}>`),
          },
          {
            name: 'methods',
            kind: 'interface',
            code: `${doc}  readonly ${tool.ids.camel}: ${methodType};\n`,
            // With `.task` it is a longer intersection, left to prettier.
            laidOut: asTask ? undefined : intersectionLayout(doc, `readonly ${tool.ids.camel}`, `ToolCalls[${key}]`, `readonly full: FullToolCalls[${key}]`),
          },
          {
            name: 'rows',
            kind: 'array',
            code: `  [${key}, ${rowObject}],\n`,
            // Headers are a JSON.parse call, which prettier may break inside: left to it.
            laidOut: rowObject.includes('JSON.parse') ? undefined : pairLayout(key, row),
          },
          { name: 'entries', kind: 'object', code: `  ${tool.ids.camel}: ${entryValue},\n`, laidOut: propertyLayout(tool.ids.camel, entryValue) },
        ],
        memo,
      );
    }),
  );
}

/** A tool the manifest lets run as a task (`execution.taskSupport` optional or required). */
function runsAsTask(tool: ToolModel): boolean {
  const execution = tool.wire['execution'];
  const support = typeof execution === 'object' && execution !== null ? (execution as { taskSupport?: unknown }).taskSupport : undefined;
  return support === 'optional' || support === 'required';
}

function hasRequiredInput(tool: ToolModel): boolean {
  const required = tool.inputSchema['required'];
  return Array.isArray(required) && required.length > 0;
}

function describe(wire: { [key: string]: unknown }, fallback: string): string {
  const title = typeof wire['title'] === 'string' ? wire['title'] : undefined;
  const description = typeof wire['description'] === 'string' ? wire['description'] : undefined;
  const head = `\`${fallback.replace(/`/g, "'")}\``;
  return [title === undefined ? head : `${head}: ${title}`, description ?? ''].filter((s) => s !== '').join('\n\n');
}

function toolDoc(tool: ToolModel, indent: string): string {
  return jsdoc(describe(tool.wire, tool.name), indent);
}
