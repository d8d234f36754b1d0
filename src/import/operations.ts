/**
 * One OpenAPI operation → one manifest tool with its `http` binding.
 *
 * The tool's arguments (inputSchema) are flat: every path, query, header and cookie parameter is a
 * top-level property named as the parameter (a name that two locations share gets the location
 * as prefix, `query_id`), and the request body is the property `body` (`request_body` when a
 * parameter is already called `body`). The binding says where each argument goes.
 *
 * Bodies, in order of preference: JSON, a form, multipart (its file parts travel as base64 text,
 * `files`), text as a string, and any other media type as base64 text of its bytes
 * (`encoding: base64`); media-types.ts. What a tool cannot carry (a parameter serialized as a
 * media type other than JSON) leaves the operation out, or the optional part out, with a warning.
 */
import { RESERVED_HEADERS, STYLES as LOCATION_STYLES } from '../load/manifest-http.js';
import { bodyMediaType, fileParts, jsonMediaType, rawBodySchema, type BodyBinding } from './media-types.js';
import type { SchemaConverter } from './schema-convert.js';
import { resolvePointer } from './schema-convert.js';

type Json = { [key: string]: unknown };

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type Method = (typeof METHODS)[number];

export interface Operation {
  path: string;
  method: Method;
  /** JSON pointer of the operation in the description (same in 2.0 and its 3.0 conversion). */
  pointer: string;
  operation: Json;
  pathItem: Json;
}

export interface HttpParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  argument: string;
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
  contentType?: 'application/json';
}

export interface ImportedTool {
  name: string;
  title?: string;
  description?: string;
  annotations: Json;
  inputSchema: Json;
  outputSchema?: unknown;
  http: { method: string; path: string; parameters?: HttpParameter[]; body?: BodyBinding; auth?: string[]; wrapOutput?: string };
}

/** A reason the operation (or a part of it) was left out; the caller positions it. */
export interface Omission {
  pointer: string;
  message: string;
  /** The whole operation was left out (not just a part of it). */
  skipped: boolean;
}

const DEFAULT_STYLE: Record<HttpParameter['in'], string> = { path: 'simple', query: 'form', header: 'simple', cookie: 'form' };
/** Headers OpenAPI says to ignore as parameters: the binding sets them itself. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** Every operation of the description, in document order. */
export function operationsOf(document: Json): Operation[] {
  const operations: Operation[] = [];
  const paths = document['paths'];
  if (!isObject(paths)) return operations;
  for (const [path, rawItem] of Object.entries(paths)) {
    const pathItem = deref(document, rawItem);
    if (!isObject(pathItem)) continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (isObject(operation)) operations.push({ path, method, pointer: `/paths/${escape(path)}/${method}`, operation, pathItem });
    }
  }
  return operations;
}

/** The operation as a tool (name left to the caller), or undefined with the omission that says why. */
export function toolOf(document: Json, op: Operation, convert: SchemaConverter, omissions: Omission[]): Omit<ImportedTool, 'name'> | undefined {
  const skip = (message: string): undefined => {
    omissions.push({ pointer: op.pointer, message, skipped: true });
    return undefined;
  };
  if (!/^\/[^\s#?]*$/.test(op.path)) return skip(`${op.method.toUpperCase()} ${op.path} is left out: its path is not a plain path template`);
  const args = new ToolArguments();
  const parametersProblem = bindParameters(document, op, convert, args, omissions);
  if (parametersProblem !== undefined) return skip(parametersProblem);
  const { properties, required, parameters } = args;
  const bodyResult = bindBody(document, op, convert, args, omissions);
  if (typeof bodyResult === 'string') return skip(bodyResult);
  const body = bodyResult;
  if (isObject(op.operation['callbacks']) && Object.keys(op.operation['callbacks']).length > 0) {
    omissions.push({ pointer: op.pointer, message: `the callbacks of ${op.method.toUpperCase()} ${op.path} (${Object.keys(op.operation['callbacks']).join(', ')}) are left out: a tool makes one request`, skipped: false });
  }

  const inputSchema: Json = { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
  let outputSchema = successSchema(document, op.operation, convert);
  // An answer that is not an object (a list, a string) is wrapped: `{ <name>: answer }` under an
  // object schema, which every revision accepts as structured content (the proxy does the wrapping).
  const wrap = outputSchema !== undefined && !isObjectSchema(outputSchema, convert) ? wrapName(outputSchema, convert) : undefined;
  if (wrap !== undefined) outputSchema = { type: 'object', properties: { [wrap]: outputSchema }, required: [wrap], additionalProperties: false };
  const summary = oneLine(op.operation['summary']);
  const description = typeof op.operation['description'] === 'string' && op.operation['description'].trim() !== '' ? op.operation['description'].trim() : summary;
  return {
    ...(summary !== undefined ? { title: summary } : {}),
    ...(description !== undefined ? { description: op.operation['deprecated'] === true ? `Deprecated. ${description}` : description } : {}),
    annotations: annotationsOf(op.method),
    inputSchema,
    ...(outputSchema !== undefined ? { outputSchema } : {}),
    http: {
      method: op.method.toUpperCase(),
      path: op.path,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(body !== undefined ? { body } : {}),
      ...(wrap !== undefined ? { wrapOutput: wrap } : {}),
    },
  };
}

/** The arguments of one tool as they are bound: properties, required ones, parameter bindings. */
class ToolArguments {
  readonly properties: Json = {};
  readonly required: string[] = [];
  readonly parameters: HttpParameter[] = [];
  private readonly taken = new Set<string>();
  /** `in` + name of each bound parameter (header names without case): a second one would be refused. */
  readonly bound = new Set<string>();

  /** The parameter's own name, else prefixed by its location (`query_id`), else numbered. */
  name(name: string, where: string): string {
    let candidate = this.taken.has(name) ? `${where}_${name}` : name;
    for (let n = 2; this.taken.has(candidate); n += 1) candidate = `${where}_${name}_${n}`;
    this.taken.add(candidate);
    return candidate;
  }

  has(name: string): boolean {
    return this.taken.has(name);
  }
}

/** Binds every parameter of the operation; a message when the operation must be left out whole. */
function bindParameters(document: Json, op: Operation, convert: SchemaConverter, args: ToolArguments, omissions: Omission[]): string | undefined {
  const { properties, required, parameters, bound } = args;
  const argumentName = (name: string, where: string): string => args.name(name, where);
  for (const parameter of mergedParameters(document, op)) {
    const location = parameter['in'];
    const name = parameter['name'];
    if (typeof name !== 'string' || name === '') continue;
    if (location === 'body' || location === 'formData') continue; // 2.0 leftovers the converter moved to requestBody
    if (location !== 'path' && location !== 'query' && location !== 'header' && location !== 'cookie') {
      if (parameter['required'] === true) return `${op.method.toUpperCase()} ${op.path} is left out: parameter '${name}' is in '${String(location)}', which a tool cannot send`;
      omissions.push({ pointer: op.pointer, message: `parameter '${name}' in '${String(location)}' of ${op.method.toUpperCase()} ${op.path} is left out: a tool cannot send it`, skipped: false });
      continue;
    }
    if (location === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) continue;
    const leaveOut = (why: string): void => void omissions.push({ pointer: op.pointer, message: `${location} parameter '${name}' of ${op.method.toUpperCase()} ${op.path} is left out: ${why}`, skipped: false });
    if (location === 'header' && RESERVED_HEADERS.has(name.toLowerCase())) {
      leaveOut('the HTTP client sets that header itself');
      continue;
    }
    if (location === 'path' && !op.path.includes(`{${name}}`)) {
      leaveOut('the path has no such placeholder');
      continue;
    }
    const key = `${location}\u0000${location === 'header' ? name.toLowerCase() : name}`;
    if (bound.has(key)) {
      leaveOut('a parameter of that name is already bound (header names ignore case)');
      continue;
    }
    bound.add(key);
    const isRequired = location === 'path' || parameter['required'] === true;
    let schema: unknown = parameter['schema'];
    let contentType: 'application/json' | undefined;
    if (schema === undefined && isObject(parameter['content'])) {
      const json = jsonMediaType(parameter['content']);
      if (json === undefined) {
        if (isRequired) return `${op.method.toUpperCase()} ${op.path} is left out: parameter '${name}' is serialized as ${Object.keys(parameter['content']).join(', ')}, which a tool cannot send`;
        omissions.push({ pointer: op.pointer, message: `parameter '${name}' of ${op.method.toUpperCase()} ${op.path} is left out: it is serialized as ${Object.keys(parameter['content']).join(', ')}`, skipped: false });
        continue;
      }
      schema = deref(document, (parameter['content'] as Json)[json])?.['schema'];
      contentType = 'application/json';
    }
    const argument = argumentName(name, location);
    const converted = convert.convert(schema ?? { type: 'string' });
    properties[argument] = withDescription(converted, parameter['description'], parameter['deprecated'] === true);
    if (isRequired) required.push(argument);
    const binding: HttpParameter = { in: location, name, argument };
    const style = parameter['style'];
    // A style the location does not allow (the description is wrong) falls back to the default.
    if (typeof style === 'string' && LOCATION_STYLES[location]?.includes(style) && style !== DEFAULT_STYLE[location]) binding.style = style;
    const effectiveStyle = binding.style ?? DEFAULT_STYLE[location];
    if (typeof parameter['explode'] === 'boolean' && parameter['explode'] !== (effectiveStyle === 'form')) binding.explode = parameter['explode'];
    if (location === 'query' && parameter['allowReserved'] === true) binding.allowReserved = true;
    if (contentType !== undefined) binding.contentType = contentType;
    parameters.push(binding);
  }

  // A path variable nobody described still has to be filled: a required string argument.
  for (const variable of op.path.matchAll(/\{([^}]+)\}/g)) {
    const name = variable[1]!;
    if (parameters.some((p) => p.in === 'path' && p.name === name)) continue;
    const argument = argumentName(name, 'path');
    properties[argument] = { type: 'string' };
    required.push(argument);
    parameters.push({ in: 'path', name, argument });
  }
  return undefined;
}

/** Binds the request body; a message when the operation must be left out whole. */
function bindBody(document: Json, op: Operation, convert: SchemaConverter, args: ToolArguments, omissions: Omission[]): BodyBinding | undefined | string {
  const { properties, required } = args;
  const argumentName = (name: string, where: string): string => args.name(name, where);
  let body: BodyBinding | undefined;
  const requestBody = deref(document, op.operation['requestBody']);
  const bodyless = op.method === 'get' || op.method === 'head';
  if (bodyless && isObject(requestBody) && isObject(requestBody['content']) && Object.keys(requestBody['content']).length > 0) {
    if (requestBody['required'] === true) return `${op.method.toUpperCase()} ${op.path} is left out: it requires a request body, which a ${op.method.toUpperCase()} request cannot carry`;
    omissions.push({ pointer: op.pointer, message: `the request body of ${op.method.toUpperCase()} ${op.path} is left out: a ${op.method.toUpperCase()} request carries none`, skipped: false });
  } else if (isObject(requestBody) && isObject(requestBody['content']) && Object.keys(requestBody['content']).length > 0) {
    const content = requestBody['content'];
    const mediaType = bodyMediaType(content);
    const argument = args.has('body') ? argumentName('request_body', 'body') : argumentName('body', 'body');
    const contentType = mediaType.type.includes('*') && mediaType.kind === 'binary' ? 'application/octet-stream' : bodyContentType(mediaType.type);
    const schema = deref(document, content[mediaType.type])?.['schema'];
    let converted: unknown;
    if (mediaType.kind === 'json' || mediaType.kind === 'form' || mediaType.kind === 'multipart') converted = convert.convert(schema ?? {});
    else converted = rawBodySchema(mediaType.kind, contentType);
    properties[argument] = withDescription(converted, requestBody['description'], false);
    if (requestBody['required'] === true) required.push(argument);
    body = { argument, ...(contentType !== 'application/json' ? { contentType } : {}) };
    if (mediaType.kind === 'binary') body.encoding = 'base64';
    if (mediaType.kind === 'multipart') {
      const files = fileParts(converted, convert);
      if (files.length > 0) body.files = files;
    }
  }
  return body;
}

/** The media type a JSON or form body is sent as: parameters dropped, lower case, a wildcard as JSON. */
function bodyContentType(mediaType: string): string {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  return type === '*/*' || type === 'application/*' ? 'application/json' : type;
}

/** `type: object` at the root, directly or through one reference. */
function isObjectSchema(schema: unknown, convert: SchemaConverter): boolean {
  if (!isObject(schema)) return false;
  if (schema['type'] === 'object') return true;
  if (typeof schema['$ref'] === 'string') return isObjectSchema(convert.def(schema['$ref'].slice('#/$defs/'.length)), convert);
  return false;
}

/** `items` for a list, `value` for anything else. */
function wrapName(schema: unknown, convert: SchemaConverter): string {
  let node = schema;
  for (let hops = 0; hops < 5 && isObject(node) && typeof node['$ref'] === 'string'; hops += 1) node = convert.def(node['$ref'].slice('#/$defs/'.length));
  return isObject(node) && node['type'] === 'array' ? 'items' : 'value';
}

/** GET and HEAD only read; DELETE destroys; PUT and DELETE may be repeated; every upstream is an open world. */
export function annotationsOf(method: Method): Json {
  switch (method) {
    case 'get':
    case 'head':
    case 'options':
    case 'trace':
      return { readOnlyHint: true, openWorldHint: true };
    case 'delete':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };
    case 'put':
      return { readOnlyHint: false, idempotentHint: true, openWorldHint: true };
    default:
      return { readOnlyHint: false, destructiveHint: false, openWorldHint: true };
  }
}

/**
 * The JSON schema of the first 2xx answer that has one (200 first). An object schema reached
 * through a reference is written out at the root (its insides stay references): the stateful
 * revisions need `type: object` at the root of an outputSchema.
 */
function successSchema(document: Json, operation: Json, convert: SchemaConverter): unknown {
  const responses = operation['responses'];
  if (!isObject(responses)) return undefined;
  const codes = Object.keys(responses).filter((code) => /^2(?:\d\d|XX)$/i.test(code)).sort();
  for (const code of codes) {
    const response = deref(document, responses[code]);
    if (!isObject(response)) continue;
    if (!isObject(response['content'])) return undefined; // the first success has no body (204): no structured result
    const json = jsonMediaType(response['content']);
    if (json === undefined) return undefined;
    const schema = deref(document, response['content'][json])?.['schema'];
    if (schema === undefined) return undefined;
    const converted = convert.convert(schema);
    return rootObject(converted, convert);
  }
  return undefined;
}

function rootObject(schema: unknown, convert: SchemaConverter): unknown {
  if (!isObject(schema) || typeof schema['$ref'] !== 'string' || Object.keys(schema).length > 2) return schema;
  const name = schema['$ref'].slice('#/$defs/'.length);
  const target = convert.def(name);
  if (!isObject(target) || target['type'] !== 'object') return schema;
  return { ...target, ...(typeof schema['description'] === 'string' ? { description: schema['description'] } : {}) };
}

/** Path-level parameters, overridden by the operation's own of the same name and location. */
function mergedParameters(document: Json, op: Operation): Json[] {
  const merged = new Map<string, Json>();
  for (const list of [op.pathItem['parameters'], op.operation['parameters']]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const parameter = deref(document, raw);
      if (isObject(parameter)) merged.set(`${String(parameter['in'])}\u0000${String(parameter['name'])}`, parameter);
    }
  }
  return [...merged.values()];
}

/** Follows local `$ref`s (the document is bundled) to the object they name; a loop or dead end gives undefined. */
export function deref(document: Json, value: unknown): Json | undefined {
  let node = value;
  for (let hops = 0; hops < 20; hops += 1) {
    if (!isObject(node)) return undefined;
    const ref = node['$ref'];
    if (typeof ref !== 'string') return node;
    node = ref.startsWith('#') ? resolvePointer(document, decodeURIComponent(ref.slice(1))) : undefined;
  }
  return undefined;
}

function withDescription(schema: unknown, description: unknown, deprecated: boolean): unknown {
  if (!isObject(schema)) return schema;
  const out = { ...schema };
  if (typeof description === 'string' && description.trim() !== '') out['description'] = description.trim();
  if (deprecated) out['deprecated'] = true;
  return out;
}

function oneLine(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  return text === '' ? undefined : text;
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
