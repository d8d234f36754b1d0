/**
 * The method table: every MCP message the runtime sends or answers, described once. Dispatch
 * (server/), the stateless adapter, the auth scopes, the client and the generator's envelope
 * validators all read it, so adding a method starts here (docs/runtime-layers.md). The wire names
 * are the constants below; nothing else in the runtime spells them.
 */

/** The stateless revision: no initialize, everything a request needs travels in its `_meta`. */
export const STATELESS_REVISION = '2026-07-28';
/** The revisions that use initialize and sessions, oldest first. */
export const STATEFUL_REVISIONS: readonly string[] = [
  '2024-11-05',
  '2025-03-26',
  '2025-06-18',
  '2025-11-25',
];
/** The one revision that allows JSON-RPC batches. */
export const BATCH_REVISION = '2025-03-26';

export const INITIALIZE = 'initialize';
export const PING = 'ping';
export const SERVER_DISCOVER = 'server/discover';
export const SUBSCRIPTIONS_LISTEN = 'subscriptions/listen';
export const TOOLS_LIST = 'tools/list';
export const TOOLS_CALL = 'tools/call';
export const RESOURCES_LIST = 'resources/list';
export const RESOURCES_TEMPLATES_LIST = 'resources/templates/list';
export const RESOURCES_READ = 'resources/read';
export const RESOURCES_SUBSCRIBE = 'resources/subscribe';
export const RESOURCES_UNSUBSCRIBE = 'resources/unsubscribe';
export const PROMPTS_LIST = 'prompts/list';
export const PROMPTS_GET = 'prompts/get';
export const COMPLETION_COMPLETE = 'completion/complete';
export const LOGGING_SET_LEVEL = 'logging/setLevel';
export const TASKS_GET = 'tasks/get';
export const TASKS_RESULT = 'tasks/result';
export const TASKS_LIST = 'tasks/list';
export const TASKS_CANCEL = 'tasks/cancel';
export const TASKS_UPDATE = 'tasks/update';
export const ELICITATION_CREATE = 'elicitation/create';
export const SAMPLING_CREATE_MESSAGE = 'sampling/createMessage';
export const ROOTS_LIST = 'roots/list';
export const INITIALIZED = 'notifications/initialized';
export const CANCELLED = 'notifications/cancelled';
export const PROGRESS = 'notifications/progress';
export const MESSAGE = 'notifications/message';
export const ROOTS_LIST_CHANGED = 'notifications/roots/list_changed';
export const TOOLS_LIST_CHANGED = 'notifications/tools/list_changed';
export const PROMPTS_LIST_CHANGED = 'notifications/prompts/list_changed';
export const RESOURCES_LIST_CHANGED = 'notifications/resources/list_changed';
export const RESOURCES_UPDATED = 'notifications/resources/updated';
export const ELICITATION_COMPLETE = 'notifications/elicitation/complete';
export const TASK_STATUS = 'notifications/tasks/status';
export const SUBSCRIPTIONS_ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';

/** Who sends the message: a client request or notification, or a server request or notification. */
export type MethodKind =
  'client-request' | 'client-notification' | 'server-request' | 'server-notification';

/** `stateful`: the initialize-and-session revisions; `stateless`: 2026-07-28. */
export type Era = 'stateful' | 'stateless';

/**
 * What a method needs the server to offer before it is served: a capability of the definition
 * (`resources.subscribe` is the `subscribe` flag inside `resources`), or `always`.
 */
export type Offer =
  | 'always'
  | 'tools'
  | 'resources'
  | 'resources.subscribe'
  | 'prompts'
  | 'logging'
  | 'completions'
  | 'tasks'
  | 'listen';

/** Which of the manifest's `scopes` a call needs (auth/scopes.ts). */
export type ScopeRule = 'tool' | 'prompt' | 'resource' | 'listen' | 'completion';

/** Which generated envelope validator module checks the message (emit/validators/runtime-validators.ts). */
export type ValidatorModule = 'request' | 'result';

export interface MethodInfo {
  readonly name: string;
  readonly kind: MethodKind;
  readonly eras: readonly Era[];
  /** For a client request: what the server must offer to serve it. */
  readonly offer?: Offer;
  /** For a 2026-07-28 request: the param `Mcp-Name` mirrors. */
  readonly named?: string;
  readonly scope?: ScopeRule;
  /** `request`: its params are checked on arrival; `result`: the client's answer to it is. */
  readonly validator?: ValidatorModule;
}

const BOTH: readonly Era[] = ['stateful', 'stateless'];
const STATEFUL: readonly Era[] = ['stateful'];
const STATELESS: readonly Era[] = ['stateless'];

/** Every method, in the order the envelope validators list them. */
export const METHOD_TABLE: readonly MethodInfo[] = [
  {
    name: INITIALIZE,
    kind: 'client-request',
    eras: STATEFUL,
    offer: 'always',
    validator: 'request',
  },
  { name: PING, kind: 'client-request', eras: STATEFUL, offer: 'always', validator: 'request' },
  { name: TOOLS_LIST, kind: 'client-request', eras: BOTH, offer: 'tools', validator: 'request' },
  {
    name: TOOLS_CALL,
    kind: 'client-request',
    eras: BOTH,
    offer: 'tools',
    named: 'name',
    scope: 'tool',
    validator: 'request',
  },
  {
    name: RESOURCES_LIST,
    kind: 'client-request',
    eras: BOTH,
    offer: 'resources',
    validator: 'request',
  },
  {
    name: RESOURCES_TEMPLATES_LIST,
    kind: 'client-request',
    eras: BOTH,
    offer: 'resources',
    validator: 'request',
  },
  {
    name: RESOURCES_READ,
    kind: 'client-request',
    eras: BOTH,
    offer: 'resources',
    named: 'uri',
    scope: 'resource',
    validator: 'request',
  },
  {
    name: RESOURCES_SUBSCRIBE,
    kind: 'client-request',
    eras: STATEFUL,
    offer: 'resources.subscribe',
    scope: 'resource',
    validator: 'request',
  },
  {
    name: RESOURCES_UNSUBSCRIBE,
    kind: 'client-request',
    eras: STATEFUL,
    offer: 'resources.subscribe',
    scope: 'resource',
    validator: 'request',
  },
  {
    name: PROMPTS_LIST,
    kind: 'client-request',
    eras: BOTH,
    offer: 'prompts',
    validator: 'request',
  },
  {
    name: PROMPTS_GET,
    kind: 'client-request',
    eras: BOTH,
    offer: 'prompts',
    named: 'name',
    scope: 'prompt',
    validator: 'request',
  },
  {
    name: COMPLETION_COMPLETE,
    kind: 'client-request',
    eras: BOTH,
    offer: 'completions',
    scope: 'completion',
    validator: 'request',
  },
  {
    name: LOGGING_SET_LEVEL,
    kind: 'client-request',
    eras: STATEFUL,
    offer: 'logging',
    validator: 'request',
  },
  { name: INITIALIZED, kind: 'client-notification', eras: STATEFUL, validator: 'request' },
  { name: CANCELLED, kind: 'client-notification', eras: STATEFUL, validator: 'request' },
  { name: PROGRESS, kind: 'client-notification', eras: STATEFUL, validator: 'request' },
  { name: ROOTS_LIST_CHANGED, kind: 'client-notification', eras: STATEFUL, validator: 'request' },
  { name: SERVER_DISCOVER, kind: 'client-request', eras: STATELESS, offer: 'always' },
  {
    name: SUBSCRIPTIONS_LISTEN,
    kind: 'client-request',
    eras: STATELESS,
    offer: 'listen',
    scope: 'listen',
  },
  { name: TASKS_GET, kind: 'client-request', eras: BOTH, offer: 'tasks', named: 'taskId' },
  { name: TASKS_RESULT, kind: 'client-request', eras: STATEFUL, offer: 'tasks' },
  { name: TASKS_LIST, kind: 'client-request', eras: STATEFUL, offer: 'tasks' },
  { name: TASKS_CANCEL, kind: 'client-request', eras: BOTH, offer: 'tasks', named: 'taskId' },
  { name: TASKS_UPDATE, kind: 'client-request', eras: STATELESS, offer: 'tasks', named: 'taskId' },
  { name: SAMPLING_CREATE_MESSAGE, kind: 'server-request', eras: STATEFUL, validator: 'result' },
  { name: ELICITATION_CREATE, kind: 'server-request', eras: STATEFUL, validator: 'result' },
  { name: ROOTS_LIST, kind: 'server-request', eras: STATEFUL, validator: 'result' },
  { name: MESSAGE, kind: 'server-notification', eras: BOTH },
  { name: TOOLS_LIST_CHANGED, kind: 'server-notification', eras: BOTH },
  { name: PROMPTS_LIST_CHANGED, kind: 'server-notification', eras: BOTH },
  { name: RESOURCES_LIST_CHANGED, kind: 'server-notification', eras: BOTH },
  { name: RESOURCES_UPDATED, kind: 'server-notification', eras: BOTH },
  { name: ELICITATION_COMPLETE, kind: 'server-notification', eras: STATEFUL },
  { name: TASK_STATUS, kind: 'server-notification', eras: BOTH },
  { name: SUBSCRIPTIONS_ACKNOWLEDGED, kind: 'server-notification', eras: STATELESS },
];

/** The table by wire name. */
export const METHOD_INFO: ReadonlyMap<string, MethodInfo> = new Map(
  METHOD_TABLE.map((info) => [info.name, info]),
);

/** The wire names of the table's rows that match. */
export function methodNames(match: (info: MethodInfo) => boolean): string[] {
  return METHOD_TABLE.filter(match).map((info) => info.name);
}
