/**
 * Manifest → ServiceModel. Input is a manifest that the loader has already validated, with every
 * tool schema bundled (self-contained); this module only shapes the IR and assigns identifiers.
 */
import { as2020 } from '../load/draft07.js';
import { uriTemplateVariables } from '../load/uri-template.js';
import { headerAnnotations } from '../runtime/protocol/header-params.js';
import { assignNames } from '../printer/names.js';
import type { AssignedName } from '../printer/names.js';
import type {
  AuthModel,
  HttpBindingModel,
  HttpParameterModel,
  Identifiers,
  PromptArgumentModel,
  PromptModel,
  ResourceModel,
  ResourceTemplateModel,
  ServiceModel,
  ToolModel,
  UpstreamModel,
} from './service-model.js';
import { viewModel, withViewLink, type ManifestView } from './views.js';

type JsonObject = { [key: string]: unknown };

/** The stateless revision: a protocol fact the loader needs too, so it is defined there. */
export { STATELESS_REVISION } from '../load/spec.js';

/** The stateful revisions a generated server can negotiate, newest first. */
export const MANIFEST_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** A validated manifest, as the loader hands it over (tool schemas already bundled). */
export interface ManifestDocument {
  server: { name: string; version: string; title?: string; description?: string; websiteUrl?: string; icons?: JsonObject[]; instructions?: string };
  protocol?: {
    versions?: string[];
    listChanged?: boolean;
    subscribe?: boolean;
    pageSize?: number;
    extensions?: Record<string, JsonObject>;
    caching?: Record<string, { ttlMs: number; cacheScope: 'public' | 'private' }>;
  };
  tools?: ManifestTool[];
  resources?: JsonObject[];
  resourceTemplates?: JsonObject[];
  prompts?: ManifestPrompt[];
  views?: ManifestView[];
  auth?: AuthModel;
  upstream?: UpstreamModel;
}

export interface ManifestTool extends JsonObject {
  name: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
}

export interface ManifestPrompt extends JsonObject {
  name: string;
  arguments?: { name: string; description?: string; required?: boolean; title?: string; enum?: string[] }[];
}

/** An identifier that differs from its natural form because another name took it first. */
export interface Renaming {
  collection: 'tools' | 'resources' | 'resourceTemplates' | 'prompts';
  index: number;
  message: string;
}

const TOOL_KEYS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'execution', 'icons', '_meta'];
const RESOURCE_KEYS = ['uri', 'name', 'title', 'description', 'mimeType', 'size', 'annotations', 'icons', '_meta'];
const TEMPLATE_KEYS = ['uriTemplate', 'name', 'title', 'description', 'mimeType', 'annotations', 'icons', '_meta'];
const PROMPT_KEYS = ['name', 'title', 'description', 'arguments', 'icons', '_meta'];
const PROMPT_ARGUMENT_KEYS = ['name', 'title', 'description', 'required'];

/** Copies the listed keys that are present, in the listed order: the wire shape never depends on input key order. */
function pick(source: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}

function ids(assigned: AssignedName | undefined, wire: string): Identifiers {
  if (!assigned) throw new Error(`no identifier assigned to '${wire}'`);
  return { pascal: assigned.pascal, camel: assigned.camel };
}

export function buildServiceModel(doc: ManifestDocument, source: string): { model: ServiceModel; renamings: Renaming[] } {
  const renamings: Renaming[] = [];
  const noteRenamings = (collection: Renaming['collection'], names: string[], assigned: Map<string, AssignedName>): void => {
    names.forEach((name, index) => {
      const because = assigned.get(name)?.renamedBecause;
      if (because) renamings.push({ collection, index, message: because });
    });
  };

  const tools = doc.tools ?? [];
  const toolNames = tools.map((t) => t.name);
  const toolIds = assignNames(toolNames);
  noteRenamings('tools', toolNames, toolIds);

  const resources = doc.resources ?? [];
  const templates = doc.resourceTemplates ?? [];
  // Resources and templates share one namespace: their handlers sit side by side.
  const resourceNames = resources.map((r) => String(r.name));
  const templateNames = templates.map((t) => String(t.name));
  const resourceIds = assignNames([...resourceNames, ...templateNames]);
  noteRenamings('resources', resourceNames, resourceIds);
  noteRenamings('resourceTemplates', templateNames, resourceIds);

  const prompts = doc.prompts ?? [];
  const promptNames = prompts.map((p) => p.name);
  const promptIds = assignNames(promptNames);
  noteRenamings('prompts', promptNames, promptIds);

  const requested = new Set(doc.protocol?.versions ?? MANIFEST_PROTOCOL_VERSIONS);
  const model: ServiceModel = {
    server: pick(doc.server, ['name', 'version', 'title', 'description', 'websiteUrl', 'icons', 'instructions']) as unknown as ServiceModel['server'],
    protocolVersions: MANIFEST_PROTOCOL_VERSIONS.filter((v) => requested.has(v)),
    listChanged: doc.protocol?.listChanged === true,
    subscribe: doc.protocol?.subscribe === true,
    ...(doc.protocol?.pageSize !== undefined ? { pageSize: doc.protocol.pageSize } : {}),
    ...(doc.protocol?.extensions !== undefined ? { extensions: doc.protocol.extensions } : {}),
    ...(doc.protocol?.caching !== undefined ? { caching: doc.protocol.caching as NonNullable<ServiceModel['caching']> } : {}),
    tools: tools.map((tool): ToolModel => {
      const model: ToolModel = {
        name: tool.name,
        ids: ids(toolIds.get(tool.name), tool.name),
        // One dialect from here on (the wire keeps what the user wrote).
        inputSchema: as2020(tool.inputSchema),
        wire: pick(tool, TOOL_KEYS),
      };
      if (tool.outputSchema) model.outputSchema = as2020(tool.outputSchema);
      const headers = mirroredHeaders(tool.inputSchema);
      if (headers.length > 0) model.headers = headers;
      if (tool['http'] !== undefined) model.http = httpBindingModel(tool['http'] as JsonObject);
      return withScopes(withViewLink(model, tool), tool);
    }),
    resources: resources.map((resource): ResourceModel =>
      withScopes<ResourceModel>(
        {
          uri: String(resource.uri),
          name: String(resource.name),
          ids: ids(resourceIds.get(String(resource.name)), String(resource.name)),
          wire: pick(resource, RESOURCE_KEYS),
        },
        resource,
      ),
    ),
    resourceTemplates: templates.map((template): ResourceTemplateModel => {
      const model: ResourceTemplateModel = {
        uriTemplate: String(template.uriTemplate),
        name: String(template.name),
        ids: ids(resourceIds.get(String(template.name)), String(template.name)),
        variables: uriTemplateVariables(String(template.uriTemplate)),
        ...(template['list'] === true ? { list: true } : {}),
        wire: pick(template, TEMPLATE_KEYS),
      };
      const enums = variableEnums(template['variables'], model.variables);
      if (enums !== undefined) model.variableEnums = enums;
      return withScopes(model, template);
    }),
    prompts: prompts.map((prompt): PromptModel => {
      const args = prompt.arguments ?? [];
      const wire = pick(prompt, PROMPT_KEYS);
      if (prompt.arguments) wire.arguments = args.map((a) => pick(a, PROMPT_ARGUMENT_KEYS));
      const model: PromptModel = {
        name: prompt.name,
        ids: ids(promptIds.get(prompt.name), prompt.name),
        arguments: args.map((a): PromptArgumentModel => ({
          name: a.name,
          required: a.required === true,
          ...(a.description !== undefined ? { description: a.description } : {}),
          ...(a.enum !== undefined ? { enum: [...a.enum] } : {}),
        })),
        wire,
      };
      return withScopes(model, prompt);
    }),
    ...(doc.views !== undefined && doc.views.length > 0 ? { views: doc.views.map(viewModel) } : {}),
    ...(doc.auth !== undefined ? { auth: authModel(doc.auth) } : {}),
    ...(doc.upstream !== undefined ? { upstream: upstreamModel(doc.upstream) } : {}),
    source,
  };
  return { model, renamings };
}

/** Manifest `upstream`, keys in a fixed order. */
function upstreamModel(upstream: UpstreamModel): UpstreamModel {
  const model = pick(upstream as unknown as JsonObject, ['baseUrl', 'variables', 'timeoutMs', 'maxResponseBytes', 'headers', 'auth', 'source']) as unknown as UpstreamModel;
  if (upstream.variables !== undefined) {
    model.variables = Object.fromEntries(Object.entries(upstream.variables).map(([name, v]) => [name, pick(v, ['default', 'env', 'enum']) as never]));
  }
  if (upstream.auth !== undefined) {
    const keys = ['type', 'in', 'name', 'env', 'usernameEnv', 'passwordEnv', 'tokenUrl', 'clientIdEnv', 'clientSecretEnv', 'scopes', 'audience'];
    model.auth = Object.fromEntries(Object.entries(upstream.auth).map(([name, scheme]) => [name, pick(scheme, keys) as never]));
  }
  if (upstream.source !== undefined) model.source = pick(upstream.source, ['openapi', 'sha256']) as never;
  return model;
}

/** Manifest `tools[].http`, with OpenAPI's default style and explode of each parameter made explicit. */
function httpBindingModel(http: JsonObject): HttpBindingModel {
  const parameters = ((http['parameters'] as JsonObject[] | undefined) ?? []).map((p): HttpParameterModel => {
    const where = p['in'] as HttpParameterModel['in'];
    const style = (p['style'] as HttpParameterModel['style'] | undefined) ?? (where === 'query' || where === 'cookie' ? 'form' : 'simple');
    return {
      in: where,
      name: String(p['name']),
      argument: String(p['argument']),
      style,
      explode: typeof p['explode'] === 'boolean' ? p['explode'] : style === 'form',
      ...(p['allowReserved'] === true ? { allowReserved: true as const } : {}),
      ...(p['contentType'] !== undefined ? { contentType: 'application/json' as const } : {}),
    };
  });
  const body = http['body'] as { argument: string; contentType?: string; encoding?: 'base64'; files?: string[] } | undefined;
  return {
    method: String(http['method']),
    path: String(http['path']),
    parameters,
    ...(body !== undefined ? { body: bodyModel(body) } : {}),
    ...(Array.isArray(http['auth']) ? { auth: http['auth'].map(String) } : {}),
    ...(typeof http['wrapOutput'] === 'string' ? { wrapOutput: http['wrapOutput'] } : {}),
  };
}

/** Manifest `http.body`, its keys in a fixed order; `files` sorted (they are a set). */
function bodyModel(body: { argument: string; contentType?: string; encoding?: 'base64'; files?: string[] }): NonNullable<HttpBindingModel['body']> {
  return {
    argument: body.argument,
    contentType: body.contentType ?? 'application/json',
    ...(body.encoding !== undefined ? { encoding: body.encoding } : {}),
    ...(body.files !== undefined && body.files.length > 0 ? { files: [...body.files].sort() } : {}),
  };
}

/** The entry's manifest `scopes`, when it lists any (never on the wire). */
function withScopes<T extends { scopes?: string[] }>(model: T, entry: JsonObject): T {
  const scopes = entry['scopes'];
  if (Array.isArray(scopes) && scopes.length > 0) model.scopes = scopes.map(String);
  return model;
}

/** Manifest `auth`, keys in a fixed order so generated code never depends on how it was written. */
function authModel(auth: AuthModel): AuthModel {
  const verifier = auth.verifier;
  const kind: AuthModel['verifier'] =
    'jwt' in verifier
      ? { jwt: pick(verifier.jwt, ['issuer', 'audience', 'algorithms', 'jwksUri', 'clockSkewSeconds', 'requireTyp']) as never }
      : 'introspection' in verifier
        ? { introspection: pick(verifier.introspection, ['endpoint', 'clientId', 'clientSecretEnv']) as never }
        : { hook: true };
  return pick({ ...auth, verifier: kind }, ['resource', 'authorizationServers', 'scopesSupported', 'scopes', 'verifier']) as unknown as AuthModel;
}

/** `x-mcp-header` on input properties reached through `properties` alone: the runtime's own walk, so the generated client and the server agree. */
function mirroredHeaders(schema: JsonObject): { path: string[]; header: string }[] {
  const headers: { path: string[]; header: string }[] = [];
  for (const { path, header } of headerAnnotations(schema)) if (typeof header === 'string') headers.push({ path: [...path], header });
  return headers;
}

/** Manifest `variables.<name>.enum` of a resource template, for the variables the template has. */
function variableEnums(declared: unknown, variables: readonly string[]): Record<string, string[]> | undefined {
  if (typeof declared !== 'object' || declared === null) return undefined;
  const enums: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  let any = false;
  for (const name of variables) {
    const entry = Object.hasOwn(declared, name) ? (declared as Record<string, { enum?: unknown }>)[name] : undefined;
    if (entry !== undefined && Array.isArray(entry.enum)) {
      enums[name] = entry.enum.filter((v): v is string => typeof v === 'string');
      any = true;
    }
  }
  return any ? enums : undefined;
}
