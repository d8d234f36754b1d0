/**
 * The server's handler tables, built once from the definition and the app's handlers: tools,
 * resources, templates and prompts, each in a Map (never a plain object, so a tool named
 * `constructor` cannot reach a prototype), with the definition checked on the way; and each
 * tool's mirrored headers, found on the tool's first need.
 */
import type {
  JsonObject,
  PromptHandler,
  ResourceHandler,
  ResourceTemplateHandler,
  ServerDefinition,
  ServerHandlers,
  ToolHandler,
  ToolValidators,
  Validator,
} from '../api.js';
import type { DefinedTool } from './defined-tools.js';
import { checkToolValidators, lazyValidators, notLoaded } from './tool-loading.js';
import { headerAnnotations } from '../protocol/header-params.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { WireEntry } from './lists.js';
import { compileUriTemplate, type UriTemplateMatcher } from '../protocol/uri-template.js';

/** A tool argument mirrored into an `Mcp-Param-{header}` HTTP header (`x-mcp-header`). */
export interface MirroredHeader {
  /** Property names from the arguments object down (`x-mcp-header` may sit on a nested property). */
  readonly path: readonly string[];
  /** Lower case, as node:http names headers: `mcp-param-region`. */
  readonly header: string;
}

export interface ToolEntry {
  readonly name: string;
  /** Its `tools/list` entry (parsed only when something needs the object). */
  readonly wire: WireEntry;
  readonly handler: ToolHandler<unknown, unknown>;
  /** Placeholders until `loadValidators`, set while they are not loaded, has run (tool-loading.ts). */
  validateInput: Validator<unknown>;
  validateOutput: Validator<unknown> | undefined;
  loadValidators: (() => Promise<ToolValidators>) | undefined;
  /**
   * False when the outputSchema's root is not an object schema (allowed from 2026-07-28 on). Sessions
   * on older revisions then see the tool without its outputSchema, and its results as text only.
   */
  readonly objectOutput: boolean;
  /** The manifest's `execution.taskSupport`; `forbidden` when absent. */
  readonly taskSupport: 'forbidden' | 'optional' | 'required';
}

export interface TemplateEntry {
  readonly matcher: UriTemplateMatcher;
  readonly handler: ResourceTemplateHandler;
}

export interface PromptEntry {
  readonly handler: PromptHandler<unknown>;
  readonly requiredArguments: readonly string[];
}

function own<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

function nameOf(entry: JsonObject, field: string, what: string): string {
  const value = entry[field];
  if (typeof value !== 'string')
    throw new Error(`Every ${what} in the definition needs a string "${field}"`);
  return value;
}

export function indexTools(
  defined: readonly DefinedTool[],
  handlers: ServerHandlers,
): Map<string, ToolEntry> {
  const tools = new Map<string, ToolEntry>();
  for (const { name, wire, binding, objectOutput, taskSupport } of defined) {
    const handler = own(handlers.tools, name);
    if (typeof handler !== 'function') throw new Error(`No handler for tool ${name}`);
    const eager = 'load' in binding ? undefined : binding;
    if (eager !== undefined) checkToolValidators(wire.value, eager);
    tools.set(name, {
      name,
      wire,
      handler: handler as ToolHandler<unknown, unknown>,
      validateInput: eager?.validateInput ?? notLoaded,
      validateOutput: eager?.validateOutput,
      loadValidators: 'load' in binding ? lazyValidators(wire, binding.load) : undefined,
      objectOutput,
      taskSupport,
    });
  }
  return tools;
}

export function withoutOutputSchema(tool: JsonObject): JsonObject {
  const { outputSchema: _dropped, ...rest } = tool;
  return rest;
}

const headersFound = new WeakMap<ToolEntry, readonly MirroredHeader[]>();

/**
 * The tool's arguments mirrored into headers, found in its inputSchema on the first call that
 * asks (only 2026-07-28 requests over HTTP do), then kept.
 */
export function mirroredHeaders(tool: ToolEntry): readonly MirroredHeader[] {
  let headers = headersFound.get(tool);
  if (headers === undefined) {
    const schema = tool.wire.value['inputSchema'];
    const found: MirroredHeader[] = [];
    // The walk the client mirrors with, so both sides agree on which arguments travel in headers.
    for (const { path, header } of isObject(schema) ? headerAnnotations(schema) : []) {
      if (typeof header === 'string')
        found.push({ path, header: `mcp-param-${header.toLowerCase()}` });
    }
    headers = found;
    headersFound.set(tool, headers);
  }
  return headers;
}

export function indexResources(
  definition: ServerDefinition,
  handlers: ServerHandlers,
): Map<string, ResourceHandler> {
  const resources = new Map<string, ResourceHandler>();
  for (const resource of definition.resources) {
    const uri = nameOf(resource, 'uri', 'resource');
    const handler = own(handlers.resources, uri);
    if (typeof handler !== 'function') throw new Error(`No handler for resource ${uri}`);
    resources.set(uri, handler);
  }
  return resources;
}

export function indexTemplates(
  definition: ServerDefinition,
  handlers: ServerHandlers,
): TemplateEntry[] {
  return definition.resourceTemplates.map((entry) => {
    const template = nameOf(entry, 'uriTemplate', 'resource template');
    const handler = own(handlers.resourceTemplates, template);
    if (typeof handler !== 'function')
      throw new Error(`No handler for resource template ${template}`);
    return { matcher: compileUriTemplate(template), handler };
  });
}

export function indexPrompts(
  definition: ServerDefinition,
  handlers: ServerHandlers,
): Map<string, PromptEntry> {
  const prompts = new Map<string, PromptEntry>();
  for (const prompt of definition.prompts) {
    const name = nameOf(prompt, 'name', 'prompt');
    const handler = own(handlers.prompts, name);
    if (typeof handler !== 'function') throw new Error(`No handler for prompt ${name}`);
    const args = Array.isArray(prompt['arguments']) ? (prompt['arguments'] as JsonObject[]) : [];
    const requiredArguments = args
      .filter((a) => a['required'] === true)
      .map((a) => nameOf(a, 'name', 'prompt argument'));
    prompts.set(name, { handler: handler as PromptHandler<unknown>, requiredArguments });
  }
  return prompts;
}
