/**
 * Which of an operation's request media types a tool sends, and how its argument carries it.
 * JSON first, then a form, then multipart, then text, then anything else as bytes: a tool's
 * arguments are JSON, so bytes travel as base64 text (self-contained, every client can send it;
 * a resource link would make the server fetch a URI the caller chose). The proxy decodes them
 * (runtime/proxy/request-body.ts).
 */
import type { SchemaConverter } from './schema-convert.js';

type Json = { [key: string]: unknown };

export type BodyKind = 'json' | 'form' | 'multipart' | 'text' | 'binary';

export interface BodyBinding {
  argument: string;
  contentType?: string;
  /** `base64`: the argument is base64 text and its bytes are the body. */
  encoding?: 'base64';
  /** Multipart parts sent as files: their values are base64 text of the file's bytes. */
  files?: string[];
}

/** `application/json`, else any `+json` type, else `*\/*`-style JSON; undefined when none. */
export function jsonMediaType(content: Json): string | undefined {
  const types = Object.keys(content);
  return (
    types.find((t) => t.split(';')[0]!.trim().toLowerCase() === 'application/json') ??
    types.find((t) => /^application\/[^;]*\+json\b/i.test(t)) ??
    types.find((t) => /^(?:\*\/\*|application\/\*)$/.test(t.trim()))
  );
}

/** The media type the tool sends (the description's key, as written) and its kind. */
export function bodyMediaType(content: Json): { type: string; kind: BodyKind } {
  const types = Object.keys(content);
  const base = (t: string): string => t.split(';')[0]!.trim().toLowerCase();
  const json = jsonMediaType(content);
  if (json !== undefined) return { type: json, kind: 'json' };
  const form = types.find((t) => base(t) === 'application/x-www-form-urlencoded');
  if (form !== undefined) return { type: form, kind: 'form' };
  const multipart = types.find((t) => base(t) === 'multipart/form-data');
  if (multipart !== undefined) return { type: multipart, kind: 'multipart' };
  const text = types.find((t) => isText(base(t)));
  if (text !== undefined) return { type: text, kind: 'text' };
  return { type: types[0]!, kind: 'binary' };
}

function isText(type: string): boolean {
  return type.startsWith('text/') || type === 'application/xml' || /^application\/[^;]*\+xml$/.test(type);
}

/** The argument's schema for a text or binary body. */
export function rawBodySchema(kind: 'text' | 'binary', contentType: string): Json {
  if (kind === 'text') return { type: 'string', description: `The ${contentType} body, as text.` };
  return { type: 'string', contentEncoding: 'base64', contentMediaType: contentType, description: `The ${contentType} body: base64 of its bytes.` };
}

/**
 * The top-level properties of a multipart body that are files: a string (or a list of them) with
 * `contentEncoding` or `contentMediaType` (the converter turns OpenAPI 3.0's `format: binary` and
 * 2.0's `type: file` into `contentEncoding: base64`).
 */
export function fileParts(schema: unknown, convert: SchemaConverter): string[] {
  const root = resolve(schema, convert);
  const properties = isObject(root) && isObject(root['properties']) ? root['properties'] : {};
  const files: string[] = [];
  for (const [name, raw] of Object.entries(properties)) {
    const property = resolve(raw, convert);
    const item = isObject(property) && property['type'] === 'array' ? resolve(property['items'], convert) : property;
    if (isObject(item) && (typeof item['contentEncoding'] === 'string' || typeof item['contentMediaType'] === 'string')) files.push(name);
  }
  return files.sort();
}

function resolve(schema: unknown, convert: SchemaConverter): unknown {
  let node = schema;
  for (let hops = 0; hops < 5 && isObject(node) && typeof node['$ref'] === 'string' && node['$ref'].startsWith('#/$defs/'); hops += 1) node = convert.def(node['$ref'].slice('#/$defs/'.length));
  return node;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
