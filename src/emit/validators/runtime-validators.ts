import type { PlannedFile } from '../../write/planned-file.js';
import { INITIALIZE, methodNames } from '../../runtime/protocol/methods.js';
import { emitValidators, type ValidatorEntry } from './index.js';

/**
 * The envelope validators the server runtime checks incoming messages with, compiled from the
 * 2025-11-25 schema (the newest stateful revision). Its request and notification definitions are
 * whole JSON-RPC messages (`jsonrpc`, `id`, `method`, `params`), so no wrapper schema is needed.
 *
 * Three modules, so a server loads only what it uses, when it first uses it:
 * - `generated/runtime/initialize-validators.js` exports `validateInitializeRequest`, the one
 *   validator a start needs (`ServerDefinition.initializeValidator`): generated servers import it
 *   eagerly, and nothing else of the envelope validators, so a start compiles a quarter of them;
 * - `generated/runtime/request-validators.js` exports `requestValidators`: keyed by method, for the
 *   other client→server requests and notifications the runtime handles
 *   (`ServerDefinition.requestValidators`); generated servers load it with the first message after
 *   `initialize`;
 * - `generated/runtime/result-validators.js` exports `resultValidators`: keyed by the method of a
 *   server→client request, validating the `result` of the client's response to it (sampling,
 *   elicitation, roots); the runtime loads it on the first such request.
 * Each .d.ts declares its own `Validator<T>`, structurally the one in src/runtime/api.ts, so the
 * files can sit anywhere without importing the runtime.
 */

/** Client→server methods the runtime checks on arrival, in the order they are listed (the runtime's method table). */
export const RUNTIME_CLIENT_METHODS: readonly string[] = methodNames((m) => m.validator === 'request');

/** The methods `requestValidators` covers: all of them but `initialize`, which has a module of its own. */
export const LAZY_CLIENT_METHODS: readonly string[] = RUNTIME_CLIENT_METHODS.filter((method) => method !== INITIALIZE);

/** Server→client requests whose results the runtime checks. */
export const RUNTIME_SERVER_REQUEST_METHODS: readonly string[] = methodNames((m) => m.validator === 'result');

export const INITIALIZE_VALIDATORS_PATH = 'runtime/initialize-validators';
export const REQUEST_VALIDATORS_PATH = 'runtime/request-validators';
export const RESULT_VALIDATORS_PATH = 'runtime/result-validators';
export const STATELESS_VALIDATORS_PATH = 'runtime/stateless-validators';

type Definitions = Record<string, { properties?: { method?: { const?: unknown } }; anyOf?: { $ref?: string }[] }>;

/** Plans `runtime/{initialize,request,result}-validators.{js,d.ts}` (paths relative to the repository's `generated/`). */
export function planRuntimeValidators(schemaDoc: object): PlannedFile[] {
  const defs = (schemaDoc as { $defs?: Definitions; definitions?: Definitions }).$defs ??
    (schemaDoc as { definitions?: Definitions }).definitions;
  if (!defs) throw new Error('planRuntimeValidators: the schema has no definitions');

  const clientMessages = byMethod(defs, [...unionMembers(defs, 'ClientRequest'), ...unionMembers(defs, 'ClientNotification')]);
  const serverRequests = byMethod(defs, unionMembers(defs, 'ServerRequest'));
  const clientResults = new Set(unionMembers(defs, 'ClientResult'));

  const initializeRows = [[INITIALIZE, definitionFor(clientMessages, INITIALIZE)] as const];
  const requestRows = LAZY_CLIENT_METHODS.map((method) => [method, definitionFor(clientMessages, method)] as const);
  const resultRows = RUNTIME_SERVER_REQUEST_METHODS.map((method) => {
    const result = definitionFor(serverRequests, method).replace(/Request$/, 'Result');
    if (!clientResults.has(result)) throw new Error(`planRuntimeValidators: ${result} is not a ClientResult`);
    return [method, result] as const;
  });

  return [
    ...validatorModule(schemaDoc, INITIALIZE_VALIDATORS_PATH, 'initializeValidators', initializeRows),
    ...validatorModule(schemaDoc, REQUEST_VALIDATORS_PATH, 'requestValidators', requestRows),
    ...validatorModule(schemaDoc, RESULT_VALIDATORS_PATH, 'resultValidators', resultRows),
  ];
}

/**
 * `runtime/stateless-validators.{js,d.ts}`, compiled from the 2026-07-28 schema: `statelessValidators`,
 * keyed by method, for every client request of that revision and its client notification (whole
 * messages, `_meta` included). The runtime loads it once the server is up, when it serves 2026-07-28.
 */
export function planStatelessValidators(schemaDoc: object): PlannedFile[] {
  const defs = (schemaDoc as { $defs?: Definitions }).$defs;
  if (!defs) throw new Error('planStatelessValidators: the schema has no $defs');
  // The revision's only client notification is a definition of its own, not a union.
  const notification = defs['ClientNotification']?.anyOf === undefined ? ['ClientNotification'] : unionMembers(defs, 'ClientNotification');
  const rows = [...byMethod(defs, [...unionMembers(defs, 'ClientRequest'), ...notification])];
  return validatorModule(schemaDoc, STATELESS_VALIDATORS_PATH, 'statelessValidators', rows);
}

/** One module of envelope validators: a `validate<Definition>` per definition and a method → validator table. */
function validatorModule(schemaDoc: object, path: string, exportName: string, rows: readonly (readonly [string, string])[]): PlannedFile[] {
  const dialect = String((schemaDoc as { $schema?: unknown }).$schema).includes('draft-07') ? 'draft-07' : '2020-12';
  const entries: ValidatorEntry[] = [];
  for (const [, name] of rows) {
    if (!entries.some((e) => e.typeName === name)) entries.push({ exportName: `validate${name}`, ref: `#/$defs/${name}`, typeName: name });
  }
  const { js, dts } = emitValidators({
    root: schemaDoc,
    dialect,
    entries,
    extraExports: [{ exportName, entries: rows.map(([method, definition]) => [method, `validate${definition}`]) }],
  });
  return [
    { path: `${path}.js`, content: js, owner: 'generated', format: 'none' },
    { path: `${path}.d.ts`, content: dts, owner: 'generated', format: 'typescript' },
  ];
}

function unionMembers(defs: Definitions, union: string): string[] {
  const members = defs[union]?.anyOf;
  if (!members) throw new Error(`planRuntimeValidators: the schema has no ${union} union`);
  return members.map((m) => (m.$ref ?? '').replace(/^#\/(\$defs|definitions)\//, ''));
}

function byMethod(defs: Definitions, names: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const name of names) {
    const method = defs[name]?.properties?.method?.const;
    if (typeof method === 'string') map.set(method, name);
  }
  return map;
}

function definitionFor(map: ReadonlyMap<string, string>, method: string): string {
  const name = map.get(method);
  if (name === undefined) throw new Error(`planRuntimeValidators: no definition for ${method}`);
  return name;
}
