/**
 * The protocol's rules that a JSON Schema cannot express: unique names, well-formed URIs and
 * templates, `x-mcp-header` declarations, and tool schemas that actually compile.
 */
import { parseUriTemplate, uriTemplateVariables } from './uri-template.js';
import type { Diagnostic } from './diagnostics.js';
import { isDraft07, type BundledSchema } from './manifest-refs.js';
import { markMetaChecked } from '../schema/meta-checked.js';
import type { CompileResult } from './schema-compiler.js';
import { isSchemaObject as isObject, subschemaSlot } from '../schema/keywords.js';
import { closest } from './manifest-schema.js';
import { reservedKeywordIn } from '../schema/reserved-keywords.js';
import { diagnosticAt, joinPointer, parsePointer } from './yaml-positions.js';
import type { SourceDocument } from './yaml-positions.js';

type JsonObject = { [key: string]: unknown };

function entries(value: unknown): [number, JsonObject][] {
  if (!Array.isArray(value)) return [];
  return [...value.entries()].filter((e): e is [number, JsonObject] => isObject(e[1]));
}

/** A string value in the manifest, and how a message names the entry it belongs to. */
interface Place {
  pointer: string;
  where: string;
  value: unknown;
}

/** The `field` of each entry of the list at `base`, each named by its entry (`tools/3`). */
function fieldPlaces(items: [number, JsonObject][], base: string, field: string): Place[] {
  return items.map(([index, item]) => ({ pointer: joinPointer(base, index, field), where: joinPointer(base, index).slice(1), value: item[field] }));
}

/** Reports every repeat of a value among `places` after its first use. */
function checkUnique(doc: SourceDocument, places: Place[], what: string, hint?: string): Diagnostic[] {
  const first = new Map<string, Place>();
  const problems: Diagnostic[] = [];
  for (const place of places) {
    if (typeof place.value !== 'string') continue;
    const earlier = first.get(place.value);
    if (earlier === undefined) first.set(place.value, place);
    else problems.push(diagnosticAt(doc, place.pointer, `duplicate ${what} '${place.value}' (first at ${earlier.where}, line ${doc.locate(earlier.pointer).line})`, hint));
  }
  return problems;
}

const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]*$/;
const TEMPLATE_VARIABLE = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

/** The characters the specification recommends for tool names; others are allowed, with a warning. */
const RECOMMENDED_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Tool names outside the recommended set (a SHOULD in the specification): served and called as they
 * are, but some clients and gateways may refuse them.
 */
export function toolNameWarnings(doc: SourceDocument): Diagnostic[] {
  const raw = doc.value as JsonObject;
  return fieldPlaces(entries(raw.tools), '/tools', 'name')
    .filter((place) => typeof place.value === 'string' && !RECOMMENDED_TOOL_NAME.test(place.value))
    .map((place) =>
      diagnosticAt(doc, place.pointer, `tool name ${JSON.stringify(place.value)} uses characters outside A–Z a–z 0–9 _ . -, which the specification recommends`, 'some clients may refuse it; it is served and called as written'),
    );
}

/** Checks on the raw manifest that need no schema bundling. */
export function checkManifestRules(doc: SourceDocument): Diagnostic[] {
  const raw = doc.value as JsonObject;
  const problems: Diagnostic[] = [];

  const tools = entries(raw.tools);
  problems.push(...checkUnique(doc, fieldPlaces(tools, '/tools', 'name'), 'tool name', 'tool names identify tools in tools/call, so each must be unique'));

  const resources = entries(raw.resources);
  problems.push(...checkUnique(doc, fieldPlaces(resources, '/resources', 'uri'), 'resource URI'));
  for (const [index, resource] of resources) {
    const uri = resource.uri;
    if (typeof uri === 'string' && uri !== '' && !(URI.test(uri) && URL.canParse(uri))) {
      problems.push(diagnosticAt(doc, joinPointer('/resources', index, 'uri'), `'${uri}' is not a valid URI`, 'use an absolute URI with a scheme, like file:///data/report.csv or myapp://status'));
    }
  }

  const templates = entries(raw.resourceTemplates);
  problems.push(...checkUnique(doc, fieldPlaces(templates, '/resourceTemplates', 'uriTemplate'), 'URI template'));
  for (const [index, template] of templates) {
    if (typeof template.uriTemplate !== 'string') continue;
    const problem = templateProblem(template.uriTemplate);
    if (problem) problems.push(diagnosticAt(doc, joinPointer('/resourceTemplates', index, 'uriTemplate'), problem.message, problem.hint));
    else if (isObject(template.variables)) {
      // Completion enums for a variable the template does not have would never be offered.
      const known = new Set(uriTemplateVariables(template.uriTemplate));
      for (const name of Object.keys(template.variables)) {
        if (!known.has(name)) {
          problems.push(
            diagnosticAt(doc, joinPointer('/resourceTemplates', index, 'variables', name), `'${name}' is not a variable of ${template.uriTemplate}`, `the template's variables: ${[...known].join(', ') || 'none'}`),
          );
        }
      }
    }
  }

  // Resource and template names become handler identifiers side by side: one namespace.
  const names = [...fieldPlaces(resources, '/resources', 'name'), ...fieldPlaces(templates, '/resourceTemplates', 'name')];
  problems.push(
    ...checkUnique(doc, names.map((place) => ({ ...place, where: place.pointer.slice(1) })), 'resource name', 'resource and resource template names name their handlers, so each must be unique'),
  );

  const prompts = entries(raw.prompts);
  problems.push(...checkUnique(doc, fieldPlaces(prompts, '/prompts', 'name'), 'prompt name'));
  for (const [index, prompt] of prompts) {
    problems.push(...checkUnique(doc, fieldPlaces(entries(prompt.arguments), joinPointer('/prompts', index, 'arguments'), 'name'), 'argument name'));
  }
  return problems;
}

function templateProblem(template: string): { message: string; hint?: string } | undefined {
  const parsed = parseUriTemplate(template);
  if (parsed.unbalancedAt !== undefined) {
    return { message: `URI template '${template}' has an unmatched '${template[parsed.unbalancedAt]}' at character ${parsed.unbalancedAt + 1}` };
  }
  if (parsed.expressions.length === 0) {
    return { message: `URI template '${template}' has no {variables}`, hint: 'a URI without variables belongs under resources' };
  }
  const seen = new Set<string>();
  for (const expression of parsed.expressions) {
    const badName = expression.names.find((n) => !TEMPLATE_VARIABLE.test(n));
    if (badName !== undefined) {
      return { message: `URI template '${template}': '${expression.text}' is not a well-formed expression`, hint: 'variable names use A–Z a–z 0–9 _ (and . between them)' };
    }
    // The runtime's matcher serves `{name}` and `{+name}` (see src/runtime/protocol/uri-template.ts).
    if ((expression.operator !== '' && expression.operator !== '+') || expression.names.length !== 1 || /[*:]/.test(expression.text)) {
      return { message: `URI template '${template}': '${expression.text}' is not supported`, hint: 'the generated server matches {name} and {+name} expressions' };
    }
    const name = expression.names[0]!;
    if (seen.has(name)) return { message: `URI template '${template}' uses {${name}} twice` };
    seen.add(name);
  }
  return undefined;
}

/** RFC 9110 field-name token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/** Calls `visit` for every schema object under `schema`, with its pointer. */
export function forEachSchema(schema: unknown, pointer: string, visit: (schema: JsonObject, pointer: string) => void): void {
  if (!isObject(schema)) return;
  visit(schema, pointer);
  for (const key of Object.keys(schema)) {
    const child = schema[key];
    const slot = subschemaSlot(key, child);
    if (slot === undefined) continue;
    const at = joinPointer(pointer, key);
    if (slot === 'one') forEachSchema(child, at, visit);
    else if (slot === 'list') (child as unknown[]).forEach((c, i) => forEachSchema(c, joinPointer(at, i), visit));
    else if (slot === 'map') for (const [name, c] of Object.entries(child as JsonObject)) forEachSchema(c, joinPointer(at, name), visit);
  }
}

/** Pointers of property schemas reachable from the root through `properties` alone. */
function isPropertyChain(pointer: string): boolean {
  const segments = parsePointer(pointer);
  if (segments.length === 0 || segments.length % 2 !== 0) return false;
  return segments.every((s, i) => i % 2 === 1 || s === 'properties');
}

export interface SchemaCheck {
  problems: Diagnostic[];
  warnings: Diagnostic[];
}

/** Checks one bundled tool schema: object root, `x-mcp-header` rules, and that it compiles. */
export function checkToolSchema(
  bundled: BundledSchema,
  raw: JsonObject,
  key: 'inputSchema' | 'outputSchema',
  options: {
    anyOutput?: boolean;
    /** Reuses an earlier run's compile check of the very same schema (the output folder's unit cache). */
    memo?: (kind: string, input: string, compute: () => string) => string;
    /** The compile check itself (schema-compiler.ts, loaded only when a run needs it). */
    compileCheck: (schema: JsonObject) => CompileResult;
  },
): SchemaCheck {
  const problems: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  const at = (pointer: string, message: string, hint?: string, part?: 'key'): Diagnostic => {
    const origin = bundled.originOf(pointer);
    return diagnosticAt(origin.file.doc, origin.pointer, message, hint, part);
  };
  const schema = bundled.schema;

  // inputSchema's `type` is checked by the manifest schema; outputSchema's depends on the revisions.
  const objectRequired = key === 'inputSchema' || !options.anyOutput;
  if (objectRequired && schema.type !== 'object' && bundled.complete && !(key === 'inputSchema' && raw.type !== undefined)) {
    const hint = key === 'outputSchema'
      ? 'structured results are JSON objects before 2026-07-28; serve 2026-07-28 (protocol.versions) for other outputs'
      : 'tool arguments and structured results are JSON objects';
    problems.push(
      schema.type === undefined || raw.type === undefined
        ? at('', `${key} must describe an object: its root needs 'type: object'`, hint)
        : at('/type', `${key} must describe an object, not ${JSON.stringify(schema.type)}`, hint),
    );
  }

  // The walks below look for a few keywords; a schema whose text names none of them skips them.
  const text = JSON.stringify(schema);
  if (text.includes('"$anchor"')) problems.push(...duplicateAnchors(schema, at));

  problems.push(...reservedKeywordProblems(text, schema, key, at));
  const headers = new Map<string, string>();
  let unsupportedDialect = false;
  if (text.includes('"$schema"') || text.includes('"x-mcp-header"')) forEachSchema(schema, '', (sub, pointer) => {
    // ajv would look an unknown `$schema` up as a meta-schema it does not have; nothing is ever
    // fetched. (The manifest schema already reports a root `$schema` written in the manifest.)
    if (Object.hasOwn(sub, '$schema') && !SUPPORTED_DIALECTS.has(sub['$schema'] as string)) {
      unsupportedDialect = true;
      if (pointer !== '' || raw['$schema'] === undefined) {
        problems.push(
          at(
            joinPointer(pointer, '$schema'),
            `unsupported JSON Schema dialect ${JSON.stringify(sub['$schema'])}; mcp-gen knows draft-07 and 2020-12 and never fetches a meta-schema`,
            `use ${[...SUPPORTED_DIALECTS].map((d) => `'${d}'`).join(' or ')}, or leave $schema out (2020-12)`,
          ),
        );
      }
    }
    if (!Object.hasOwn(sub, 'x-mcp-header')) return;
    const header = sub['x-mcp-header'];
    const headerPointer = joinPointer(pointer, 'x-mcp-header');
    if (key !== 'inputSchema') {
      problems.push(at(headerPointer, 'x-mcp-header only applies to inputSchema properties'));
      return;
    }
    if (!isPropertyChain(pointer)) {
      problems.push(at(headerPointer, 'x-mcp-header must sit on a property reached from the root through properties alone', 'not inside $defs, items, allOf/anyOf/oneOf or a $ref target: clients reject such tools'));
      return;
    }
    if (typeof header !== 'string' || !HEADER_NAME.test(header)) {
      problems.push(at(headerPointer, `x-mcp-header ${JSON.stringify(header)} is not a valid header name`, "use letters, digits and - (an HTTP token: no spaces, no ':'), like Region"));
      return;
    }
    const property = parsePointer(pointer).filter((_, i) => i % 2 === 1).join('.');
    const earlier = headers.get(header.toLowerCase());
    if (earlier !== undefined) {
      problems.push(at(headerPointer, `x-mcp-header '${header}' is already used by property '${earlier}'`, 'header names are case-insensitive, so each must differ in more than case'));
    } else {
      headers.set(header.toLowerCase(), property);
    }
    if (typeof sub.type !== 'string' || !HEADER_TYPES.has(sub.type)) {
      problems.push(at(headerPointer, `x-mcp-header on property '${property}', which is not a string, number, integer or boolean`, "only primitive values can be mirrored into a header: declare 'type' on the property"));
    }
  });

  if (problems.length === 0 && !unsupportedDialect && bundled.complete) {
    const { memo, compileCheck } = options;
    const compiled = memo ? (JSON.parse(memo('schema-check', text, () => JSON.stringify(compileCheck(schema)))) as CompileResult) : compileCheck(schema);
    if (compiled.schemaErrors.length === 0 && !isDraft07(schema)) markMetaChecked(schema);
    // The meta-schema explains one bad keyword several ways (anyOf branches); the first says enough,
    // unless another branch reached inside the value (`type: [strin]`): that one points closer.
    const explained = new Set<string>();
    const paths = compiled.schemaErrors.map((error) => error.instancePath);
    for (const error of compiled.schemaErrors) {
      const path = error.instancePath;
      if (explained.has(path) || (path !== '' && paths.some((other) => other.startsWith(path + '/')))) continue;
      explained.add(path);
      const keyword = parsePointer(path).filter((segment) => !/^[0-9]+$/.test(segment)).pop();
      const subject = keyword === undefined ? '' : `'${keyword}' `;
      const value = valueAt(schema, path);
      const allowed = error.keyword === 'enum' ? (error.params as { allowedValues?: unknown }).allowedValues : undefined;
      if (Array.isArray(allowed) && typeof value === 'string') {
        const words = allowed.filter((v): v is string => typeof v === 'string');
        const near = closest(value, words);
        const hint = near !== undefined ? `did you mean '${near}'?` : `use one of ${words.map((w) => `'${w}'`).join(', ')}`;
        problems.push(at(path, `${key} is not a valid JSON Schema: ${subject}cannot be '${value}'`, hint));
        continue;
      }
      problems.push(at(path, `${key} is not a valid JSON Schema: ${subject}${error.message ?? `fails ${error.keyword}`}`));
    }
    if (compiled.failure) problems.push(at(compiled.failure.pointer, `${key} does not compile: ${compiled.failure.message}`, compiled.failure.hint));
    for (const warning of compiled.warnings) warnings.push(at(warning.pointer, `${key}: ${warning.message}`, warning.hint, 'key'));
  }
  return { problems, warnings };
}

/** mcp-gen's own stub keywords (schema/reserved-keywords.ts): nobody else's schema may carry them. */
function reservedKeywordProblems(text: string, schema: JsonObject, key: string, at: (pointer: string, message: string, hint?: string, part?: 'key') => Diagnostic): Diagnostic[] {
  const reserved = text.includes('"x-mcp-gen-') ? reservedKeywordIn(schema) : undefined;
  if (reserved === undefined) return [];
  return [at(reserved.pointer, `${key} uses '${reserved.keyword}', a keyword reserved for mcp-gen's generated code`, "remove it or rename it: keys starting with x-mcp-gen- are mcp-gen's own (property names may use them)", 'key')];
}

/** `$anchor` is kept verbatim (manifest-refs.ts); within one schema each name may stand once. */
function duplicateAnchors(schema: JsonObject, at: (pointer: string, message: string, hint?: string) => Diagnostic): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const anchors = new Map<string, string>();
  forEachSchema(schema, '', (sub, pointer) => {
    const anchor = sub['$anchor'];
    if (typeof anchor !== 'string') return;
    const first = anchors.get(anchor);
    if (first === undefined) anchors.set(anchor, pointer);
    else problems.push(at(joinPointer(pointer, '$anchor'), `duplicate $anchor '${anchor}' (first at ${first === '' ? 'the root' : first})`, 'give each anchor of a tool schema its own name'));
  });
  return problems;
}

/** The value at `pointer` inside `schema`. */
function valueAt(schema: JsonObject, pointer: string): unknown {
  let value: unknown = schema;
  for (const segment of parsePointer(pointer)) value = value !== null && typeof value === 'object' ? (value as JsonObject)[segment] : undefined;
  return value;
}

/** `$schema` values the checks and the generated validators understand (exactly; no fetching). */
const SUPPORTED_DIALECTS = new Set([
  'https://json-schema.org/draft/2020-12/schema',
  'http://json-schema.org/draft-07/schema#',
  'http://json-schema.org/draft-07/schema',
]);
