import type { Diagnostic } from '../load/diagnostics.js';
import { InputError, unplacedDiagnostic } from '../load/diagnostics.js';
import type { JsonSchema, LoadedSpec, SpecDialect } from '../load/spec.js';
import { isSchemaObject, pointerSegment, refSegmentKey, type SchemaObject } from '../schema/keywords.js';
import { byCodeUnit } from '../printer/names.js';
import { assignDefinitionIdentifiers } from './protocol-identifiers.js';

export { BINDING_NAMES } from './protocol-identifiers.js';

/**
 * The IR of one protocol revision: plain JSON (snapshot it, print it with --debug-ir). Everything
 * here is derived from the schema; the few facts the schema does not state are marked as such.
 */
export interface ProtocolModel {
  revision: string;
  dialect: SpecDialect;
  /**
   * `LATEST_PROTOCOL_VERSION`: the version the schema states (src/load/spec-version.ts), else the
   * name it was loaded by (a `draft` that states none stays `draft`, which no peer negotiates).
   */
  protocolVersion: string;
  /** `JSONRPC_VERSION`: the `jsonrpc` const of JSONRPCRequest, else JSON-RPC 2.0's "2.0". */
  jsonrpcVersion: string;
  /** Definition name → definition, sorted by name. */
  definitions: Record<string, ProtocolDefinition>;
  /** The message unions this revision defines (2026-07-28 has no ServerRequest). */
  unions: ProtocolUnion[];
  /** Every request definition (with a `method` const) paired with its result, sorted by method. */
  requests: RequestMethod[];
  /** Methods by direction, from the unions; sorted by method. */
  clientRequests: RequestMethod[];
  serverRequests: RequestMethod[];
  clientNotifications: NotificationMethod[];
  serverNotifications: NotificationMethod[];
  /** JSON-RPC error codes: the ones the schema defines, plus the standard ones it leaves implicit. */
  errorCodes: ErrorCodeEntry[];
}

export interface ProtocolDefinition {
  /** The name in the schema (wire name). */
  name: string;
  /** The TypeScript type name; equal to `name` unless TypeScript forbids it. */
  identifier: string;
  schema: JsonSchema;
  /** The definition's section in the published schema reference. */
  docUrl: string;
}

export const UNION_NAMES = [
  'ClientRequest',
  'ServerRequest',
  'ClientNotification',
  'ServerNotification',
  'ClientResult',
  'ServerResult',
  'JSONRPCMessage',
] as const;
export type UnionName = (typeof UNION_NAMES)[number];

export interface ProtocolUnion {
  name: UnionName;
  /**
   * `union`: an anyOf/oneOf of refs (members are the referenced definitions).
   * `single`: one message or one ref, e.g. 2026-07-28's ClientNotification (members: itself)
   * and ClientResult (members: Result).
   */
  shape: 'union' | 'single';
  members: string[];
}

/** `required`: params must be sent; `optional`: may be omitted; `none`: the schema has no params. */
export type ParamsPresence = 'required' | 'optional' | 'none';

export interface RequestMethod {
  method: string;
  /** The request definition. */
  request: string;
  params: ParamsPresence;
  /** The result definition. */
  result: string;
  /**
   * Other results the revision allows, from its `<Result>Response` definition (2026-07-28:
   * `tools/call`, `prompts/get` and `resources/read` may answer an `InputRequiredResult`).
   */
  alternatives: string[];
  /** `by-name`: FooRequest → FooResult; `exception`: listed in RESULT_EXCEPTIONS. */
  pairing: 'by-name' | 'exception';
}

export interface NotificationMethod {
  method: string;
  notification: string;
  params: ParamsPresence;
}

export interface ErrorCodeEntry {
  /** The key in the generated `ErrorCode` object: the schema's definition name, or the standard name. */
  name: string;
  code: number;
  source: 'schema' | 'json-rpc';
}

/**
 * Requests whose result is not named after them (FooRequest → FooResult). The only place such
 * pairs are listed; each maps to the empty result (`EmptyResult`, or `Result` where a revision has
 * no EmptyResult).
 */
export const RESULT_EXCEPTIONS: Readonly<Record<string, 'EmptyResult'>> = {
  ping: 'EmptyResult',
  'resources/subscribe': 'EmptyResult',
  'resources/unsubscribe': 'EmptyResult',
  'logging/setLevel': 'EmptyResult',
};

/** JSON-RPC 2.0's predefined errors, named as 2026-07-28 names its error definitions. */
export const STANDARD_JSONRPC_ERRORS: ReadonlyArray<{ name: string; code: number }> = [
  { name: 'ParseError', code: -32700 },
  { name: 'InvalidRequestError', code: -32600 },
  { name: 'MethodNotFoundError', code: -32601 },
  { name: 'InvalidParamsError', code: -32602 },
  { name: 'InternalError', code: -32603 },
];

export const SPEC_SITE = 'https://modelcontextprotocol.io/specification';

/** The schema reference page anchors each definition by its lowercased name. */
export function definitionDocUrl(revision: string, name: string): string {
  return `${SPEC_SITE}/${encodeURIComponent(revision)}/schema#${encodeURIComponent(name.toLowerCase())}`;
}

export function buildProtocolModel(spec: LoadedSpec): ProtocolModel {
  const problems: Diagnostic[] = [];
  const problem = (name: string, message: string, hint?: string): void => {
    problems.push(unplacedDiagnostic(spec.source, `/$defs/${pointerSegment(name)}`, message, hint));
  };
  const defs = spec.defs;
  const has = (name: string): boolean => Object.hasOwn(defs, name);
  const names = Object.keys(defs).sort(byCodeUnit);
  const identifiers = assignDefinitionIdentifiers(names);

  const definitions = Object.fromEntries(
    names.map((name) => [
      name,
      { name, identifier: identifiers.get(name)!, schema: defs[name]!, docUrl: definitionDocUrl(spec.revision, name) },
    ]),
  );

  const unions: ProtocolUnion[] = [];
  for (const name of UNION_NAMES) {
    if (!has(name)) continue;
    const union = readUnion(name, defs[name]!);
    if (typeof union === 'string') problem(name, union);
    else unions.push(union);
  }
  const unionMembers = (name: UnionName): string[] => unions.find((u) => u.name === name)?.members ?? [];

  const requests: RequestMethod[] = [];
  for (const name of names) {
    const method = methodConst(defs[name]!);
    if (method === undefined || !name.endsWith('Request')) continue;
    const result = pairResult(name, method, has);
    if (result === undefined) {
      const expected = Object.hasOwn(RESULT_EXCEPTIONS, method) ? `${RESULT_EXCEPTIONS[method]} or Result` : name.replace(/Request$/, 'Result');
      problem(name, `no result type for request ${JSON.stringify(method)}: expected ${expected}`, 'add the pair to RESULT_EXCEPTIONS in src/model/protocol.ts');
      continue;
    }
    requests.push({ method, request: name, params: paramsPresence(defs[name]!), ...result, alternatives: alternativeResults(defs, result.result) });
  }
  requests.sort((a, b) => byCodeUnit(a.method, b.method) || byCodeUnit(a.request, b.request));

  const requestsIn = (union: UnionName): RequestMethod[] =>
    methodsIn(union, unionMembers(union), defs, problem, (member) => {
      const entry = requests.find((r) => r.request === member);
      if (!entry) problem(union, `member ${member} of ${union} is not a request named …Request with a \`method\` const`);
      return entry;
    });
  const notificationsIn = (union: UnionName): NotificationMethod[] =>
    methodsIn(union, unionMembers(union), defs, problem, (member, method) => ({ method, notification: member, params: paramsPresence(defs[member]!) }));

  const model: ProtocolModel = {
    revision: spec.revision,
    dialect: spec.dialect,
    protocolVersion: spec.revision,
    jsonrpcVersion: jsonrpcVersion(defs),
    definitions,
    unions,
    requests,
    clientRequests: requestsIn('ClientRequest'),
    serverRequests: requestsIn('ServerRequest'),
    clientNotifications: notificationsIn('ClientNotification'),
    serverNotifications: notificationsIn('ServerNotification'),
    errorCodes: errorCodes(defs, names),
  };
  if (problems.length > 0) throw new InputError(problems);
  return model;
}

function readUnion(name: UnionName, schema: JsonSchema): ProtocolUnion | string {
  if (!isSchemaObject(schema)) return `${name} must be an object schema`;
  const alternatives = schema['anyOf'] ?? schema['oneOf'];
  if (Array.isArray(alternatives)) {
    // Inline alternatives (2025-03-26's batch arrays in JSONRPCMessage) are not named members.
    const members = alternatives.map(refName).filter((m): m is string => m !== undefined);
    return { name, shape: 'union', members };
  }
  const target = refName(schema);
  if (target !== undefined) return { name, shape: 'single', members: [target] };
  if (isSchemaObject(schema['properties'])) return { name, shape: 'single', members: [name] };
  return `${name} is neither a union of refs, a ref, nor a message`;
}

/** Entries for the members of a request or notification union, sorted by method; duplicates are problems. */
function methodsIn<T extends { method: string }>(
  union: UnionName,
  members: readonly string[],
  defs: Record<string, JsonSchema>,
  problem: (name: string, message: string) => void,
  entryFor: (member: string, method: string) => T | undefined,
): T[] {
  const entries = new Map<string, T>();
  for (const member of members) {
    const method = methodConst(defs[member]!);
    if (method === undefined) {
      problem(member, `member ${member} of ${union} has no \`method\` const`);
      continue;
    }
    const entry = entryFor(member, method);
    if (!entry) continue;
    if (entries.has(method)) problem(union, `${union} lists method ${JSON.stringify(method)} twice`);
    entries.set(method, entry);
  }
  return [...entries.values()].sort((a, b) => byCodeUnit(a.method, b.method));
}

/** The results a `<Result>Response` definition admits besides `result` itself (its `result` anyOf), sorted. */
function alternativeResults(defs: Record<string, unknown>, result: string): string[] {
  const response = defs[`${result}Response`];
  const properties = isSchemaObject(response) ? response['properties'] : undefined;
  const resultSchema = isSchemaObject(properties) ? properties['result'] : undefined;
  const anyOf = isSchemaObject(resultSchema) ? resultSchema['anyOf'] : undefined;
  if (!Array.isArray(anyOf)) return [];
  const names = anyOf.map(refName).filter((n): n is string => n !== undefined && n !== result);
  return [...new Set(names)].sort(byCodeUnit);
}

function pairResult(request: string, method: string, has: (name: string) => boolean): Pick<RequestMethod, 'result' | 'pairing'> | undefined {
  if (Object.hasOwn(RESULT_EXCEPTIONS, method)) {
    const result = [RESULT_EXCEPTIONS[method]!, 'Result'].find(has);
    return result === undefined ? undefined : { result, pairing: 'exception' };
  }
  const byName = request.replace(/Request$/, 'Result');
  return has(byName) ? { result: byName, pairing: 'by-name' } : undefined;
}

function refName(schema: unknown): string | undefined {
  if (!isSchemaObject(schema) || typeof schema['$ref'] !== 'string') return undefined;
  const match = /^#\/\$defs\/([^/]+)$/.exec(schema['$ref']);
  return match ? refSegmentKey(match[1]!) : undefined;
}

function property(schema: JsonSchema | undefined, name: string): SchemaObject | undefined {
  if (!isSchemaObject(schema) || !isSchemaObject(schema['properties'])) return undefined;
  const value = Object.hasOwn(schema['properties'], name) ? schema['properties'][name] : undefined;
  return isSchemaObject(value) ? value : undefined;
}

function methodConst(schema: JsonSchema): string | undefined {
  const value = property(schema, 'method')?.['const'];
  return typeof value === 'string' ? value : undefined;
}

function paramsPresence(schema: JsonSchema): ParamsPresence {
  if (!property(schema, 'params')) return 'none';
  const required = isSchemaObject(schema) ? schema['required'] : undefined;
  return Array.isArray(required) && required.includes('params') ? 'required' : 'optional';
}

function jsonrpcVersion(defs: Record<string, JsonSchema>): string {
  const value = property(defs['JSONRPCRequest'], 'jsonrpc')?.['const'];
  return typeof value === 'string' ? value : '2.0';
}

/**
 * Error codes a schema states as a `code` const: on an error object (2026-07-28's ParseError…)
 * or on the `error` of an error response, directly or in an allOf (URLElicitationRequiredError).
 */
function errorCodes(defs: Record<string, JsonSchema>, names: readonly string[]): ErrorCodeEntry[] {
  const entries: ErrorCodeEntry[] = [];
  for (const name of names) {
    const schema = defs[name]!;
    const error = property(schema, 'error');
    const candidates = [property(schema, 'code'), property(error, 'code')];
    const parts = error?.['allOf'];
    if (Array.isArray(parts)) for (const part of parts) candidates.push(property(part as JsonSchema, 'code'));
    const code = candidates.map((c) => c?.['const']).find((c): c is number => Number.isInteger(c));
    if (code !== undefined) entries.push({ name, code, source: 'schema' });
  }
  for (const standard of STANDARD_JSONRPC_ERRORS) {
    const taken = entries.some((e) => e.code === standard.code || e.name === standard.name);
    if (!taken) entries.push({ ...standard, source: 'json-rpc' });
  }
  return entries.sort((a, b) => a.code - b.code || byCodeUnit(a.name, b.name));
}
