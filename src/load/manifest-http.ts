/**
 * The rules of `upstream` and of each tool's `http` binding that the manifest schema cannot say:
 * names that must refer to one another (path placeholders, arguments, auth schemes, base URL
 * variables) and serializations that OpenAPI allows only in some places. Each problem is reported
 * at the place to fix.
 */
import type { Diagnostic } from './diagnostics.js';
import { isSchemaObject as isObject } from '../schema/keywords.js';
import { closest } from './manifest-schema.js';
import { diagnosticAt, joinPointer } from './yaml-positions.js';
import type { SourceDocument } from './yaml-positions.js';

type JsonObject = { [key: string]: unknown };

/** OpenAPI 3.x: the styles each parameter location allows. */
export const STYLES: Record<string, readonly string[]> = {
  path: ['simple', 'label', 'matrix'],
  query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
  header: ['simple'],
  cookie: ['form'],
};

/** Headers that belong to the connection or to fetch itself: an argument must never set them. */
export const RESERVED_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'proxy-connection']);

/** `{name}` placeholders of a path or base URL template, in order. */
export function templatePlaceholders(template: string): string[] {
  return [...template.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!);
}

export function checkHttpRules(doc: SourceDocument): Diagnostic[] {
  const raw = doc.value as JsonObject;
  const problems: Diagnostic[] = [];
  const upstream = isObject(raw['upstream']) ? raw['upstream'] : undefined;
  if (upstream !== undefined) problems.push(...checkUpstream(doc, upstream));
  const schemes = upstream !== undefined && isObject(upstream['auth']) ? Object.keys(upstream['auth']) : [];
  const tools = Array.isArray(raw['tools']) ? raw['tools'] : [];
  tools.forEach((tool: unknown, index) => {
    if (!isObject(tool) || !isObject(tool['http'])) return;
    const at = joinPointer('/tools', index, 'http');
    if (raw['upstream'] === undefined) {
      problems.push(diagnosticAt(doc, at, 'an `http` binding needs a top-level `upstream`', 'add `upstream: { baseUrl: https://api.example.com }` (or remove `http`)', 'key'));
    }
    problems.push(...checkBinding(doc, at, tool['http'], tool['inputSchema'], schemes));
    problems.push(...checkWrap(doc, at, tool['http'], tool['outputSchema']));
  });
  return problems;
}

/** `wrapOutput` names the one property of an object outputSchema that holds the answer. */
function checkWrap(doc: SourceDocument, at: string, http: JsonObject, outputSchema: unknown): Diagnostic[] {
  const wrap = http['wrapOutput'];
  if (typeof wrap !== 'string' || !isObject(outputSchema)) return [];
  const properties = isObject(outputSchema['properties']) ? Object.keys(outputSchema['properties']) : undefined;
  if (outputSchema['type'] === 'object' && (properties === undefined || properties.includes(wrap))) return [];
  return [diagnosticAt(doc, joinPointer(at, 'wrapOutput'), `the outputSchema has no property '${wrap}'`, `wrap the answer's schema: outputSchema: { type: object, properties: { ${wrap}: … } }`)];
}

function checkUpstream(doc: SourceDocument, upstream: JsonObject): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const baseUrl = upstream['baseUrl'];
  // One that breaks the schema's pattern is reported by it.
  if (typeof baseUrl !== 'string' || !/^https?:\/\/[^\s#?]+$/.test(baseUrl)) return problems;
  const variables = isObject(upstream['variables']) ? upstream['variables'] : {};
  const placeholders = templatePlaceholders(baseUrl);
  for (const name of placeholders) {
    if (!(name in variables)) {
      problems.push(diagnosticAt(doc, '/upstream/baseUrl', `'{${name}}' has no entry in upstream.variables`, `add \`variables: { ${name}: { default: … } }\``));
    }
  }
  // A client-credentials token URL may use the same variables (a self-hosted API's own host, say).
  const auth = isObject(upstream['auth']) ? upstream['auth'] : {};
  for (const [scheme, value] of Object.entries(auth)) {
    if (!isObject(value) || typeof value['tokenUrl'] !== 'string') continue;
    for (const name of templatePlaceholders(value['tokenUrl'])) {
      if (!(name in variables)) problems.push(diagnosticAt(doc, joinPointer('/upstream/auth', scheme, 'tokenUrl'), `'{${name}}' has no entry in upstream.variables`));
    }
  }
  for (const [name, variable] of Object.entries(variables)) {
    if (!placeholders.includes(name)) {
      problems.push(diagnosticAt(doc, joinPointer('/upstream/variables', name), `'${name}' is not a placeholder of ${baseUrl}`, `the base URL's placeholders: ${placeholders.join(', ') || 'none'}`, 'key'));
    } else if (isObject(variable) && Array.isArray(variable['enum']) && typeof variable['default'] === 'string' && !variable['enum'].includes(variable['default'])) {
      problems.push(diagnosticAt(doc, joinPointer('/upstream/variables', name, 'default'), `'${variable['default']}' is not one of its enum values`));
    }
  }
  // With every placeholder at its default, the base URL must be a URL a request can be sent to.
  if (placeholders.every((name) => isObject(variables[name]) && typeof variables[name]['default'] === 'string')) {
    const filled = baseUrl.replace(/\{([^{}]*)\}/g, (_, name: string) => String((variables[name] as JsonObject)['default']));
    if (!URL.canParse(filled) || !/^https?:$/.test(new URL(filled).protocol)) {
      problems.push(diagnosticAt(doc, '/upstream/baseUrl', `'${filled}' is not a valid http: or https: URL`));
    }
  }
  return problems;
}

function checkBinding(doc: SourceDocument, at: string, http: JsonObject, inputSchema: unknown, schemes: string[]): Diagnostic[] {
  const problems: Diagnostic[] = [];
  // Arguments are checked against `properties` when the schema has them at its root; a schema
  // built some other way (a root `$ref`, `allOf`) is trusted.
  const properties = isObject(inputSchema) && isObject(inputSchema['properties']) ? Object.keys(inputSchema['properties']) : undefined;
  const required = isObject(inputSchema) && Array.isArray(inputSchema['required']) ? inputSchema['required'] : [];
  const checkArgument = (pointer: string, argument: unknown): void => {
    if (typeof argument !== 'string' || properties === undefined || properties.includes(argument)) return;
    const near = closest(argument, properties);
    problems.push(diagnosticAt(doc, pointer, `'${argument}' is not a property of the tool's inputSchema`, near ? `did you mean '${near}'?` : `its properties: ${properties.join(', ') || 'none'}`));
  };

  const parameters = Array.isArray(http['parameters']) ? http['parameters'] : [];
  const seen = new Map<string, number>();
  const pathNames = new Set<string>();
  parameters.forEach((parameter: unknown, index) => {
    if (!isObject(parameter) || typeof parameter['in'] !== 'string' || typeof parameter['name'] !== 'string') return;
    const here = joinPointer(at, 'parameters', index);
    const where = parameter['in'];
    const name = parameter['name'];
    // Header names are case-insensitive (RFC 9110); the others are not.
    const key = `${where}\0${where === 'header' ? name.toLowerCase() : name}`;
    const first = seen.get(key);
    if (first !== undefined) problems.push(diagnosticAt(doc, joinPointer(here, 'name'), `${where} parameter '${name}' is already bound at parameters/${first}`));
    else seen.set(key, index);
    checkArgument(joinPointer(here, 'argument'), parameter['argument']);
    const style = parameter['style'];
    if (typeof style === 'string' && STYLES[where] !== undefined && !STYLES[where].includes(style)) {
      problems.push(diagnosticAt(doc, joinPointer(here, 'style'), `style '${style}' is not allowed for a ${where} parameter`, `use ${STYLES[where].join(', ')}`));
    }
    if (parameter['allowReserved'] !== undefined && where !== 'query') {
      problems.push(diagnosticAt(doc, joinPointer(here, 'allowReserved'), '`allowReserved` applies to query parameters only', undefined, 'key'));
    }
    if (where === 'header' && RESERVED_HEADERS.has(name.toLowerCase())) {
      problems.push(diagnosticAt(doc, joinPointer(here, 'name'), `'${name}' is set by the HTTP client, not by an argument`));
    }
    if (where === 'path') {
      pathNames.add(name);
      const argument = parameter['argument'];
      if (typeof argument === 'string' && properties?.includes(argument) && !required.includes(argument)) {
        problems.push(diagnosticAt(doc, joinPointer(here, 'argument'), `path parameter '${name}' needs '${argument}' among the inputSchema's required properties`, 'a URL cannot be built without it'));
      }
    }
  });

  const path = http['path'];
  if (typeof path === 'string') {
    for (const name of templatePlaceholders(path)) {
      if (!pathNames.has(name)) problems.push(diagnosticAt(doc, joinPointer(at, 'path'), `'{${name}}' has no path parameter`, `add \`- { in: path, name: ${name}, argument: … }\` to parameters`));
    }
    const placeholders = new Set(templatePlaceholders(path));
    parameters.forEach((parameter: unknown, index) => {
      if (isObject(parameter) && parameter['in'] === 'path' && typeof parameter['name'] === 'string' && !placeholders.has(parameter['name'])) {
        problems.push(diagnosticAt(doc, joinPointer(at, 'parameters', index, 'name'), `'${parameter['name']}' is not a placeholder of ${path}`));
      }
    });
  }

  const body = http['body'];
  if (isObject(body)) {
    checkArgument(joinPointer(at, 'body', 'argument'), body['argument']);
    if (http['method'] === 'GET' || http['method'] === 'HEAD') {
      problems.push(diagnosticAt(doc, joinPointer(at, 'body'), `a ${String(http['method'])} request has no body`, 'remove `body`, or use another method', 'key'));
    }
    problems.push(...bodyEncodingProblems(doc, joinPointer(at, 'body'), body));
  }

  if (Array.isArray(http['auth'])) {
    http['auth'].forEach((scheme: unknown, index) => {
      if (typeof scheme !== 'string' || schemes.includes(scheme)) return;
      const near = closest(scheme, schemes);
      problems.push(diagnosticAt(doc, joinPointer(at, 'auth', index), `'${scheme}' is not a scheme of upstream.auth`, near ? `did you mean '${near}'?` : `its schemes: ${schemes.join(', ') || 'none'}`));
    });
  }
  return problems;
}

/** How a body's media type and its `encoding` and `files` go together. */
function bodyEncodingProblems(doc: SourceDocument, at: string, body: Record<string, unknown>): Diagnostic[] {
  const type = typeof body['contentType'] === 'string' ? body['contentType'].toLowerCase() : 'application/json';
  const structured = type === 'application/json' || type.endsWith('+json') || type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data';
  const problems: Diagnostic[] = [];
  if (body['encoding'] !== undefined && structured) {
    problems.push(diagnosticAt(doc, joinPointer(at, 'encoding'), `\`encoding\` is for bytes, not for ${type}`, 'remove `encoding`, or give the binary media type', 'key'));
  }
  if (body['files'] !== undefined && type !== 'multipart/form-data') {
    problems.push(diagnosticAt(doc, joinPointer(at, 'files'), '`files` applies to multipart/form-data bodies only', 'remove `files`, or set contentType: multipart/form-data', 'key'));
  }
  return problems;
}
