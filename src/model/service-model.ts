/**
 * The IR of a user's server: what `src/load/manifest` produces and what `src/emit/server` (and
 * later the client emitter) consume. Plain JSON, so `--debug-ir` can print it and tests can
 * snapshot it. Wire names stay beside the identifiers assigned to them; wire data is never renamed.
 */
import type { HttpParameter } from '../runtime/proxy/serialize.js';

export type JsonSchema = { [key: string]: unknown } | boolean;

/** Identifiers assigned to one wire name (see src/printer/names.ts). */
export interface Identifiers {
  /** `GetWeather`: type names derive from it (`GetWeatherInput`, `GetWeatherOutput`). */
  pascal: string;
  /** `getWeather`: handler export and handler file name (`handlers/getWeather.ts`). */
  camel: string;
}

export interface ToolModel {
  /** Wire name, as in tools/list and tools/call. */
  name: string;
  ids: Identifiers;
  /**
   * Self-contained JSON Schemas (2020-12 unless the manifest says otherwise): shared manifest
   * `$defs` and external `$ref` files they use are bundled into their own `$defs`, refs rewritten.
   * Exactly what goes on the wire in tools/list.
   */
  inputSchema: { [key: string]: unknown };
  outputSchema?: { [key: string]: unknown };
  /**
   * Input properties marked `x-mcp-header: Name`, whose (primitive) value clients mirror into the
   * `Mcp-Param-Name` HTTP header. `path` holds the property names from the arguments object down
   * (one name for a top-level property). Header names are unique case-insensitively within the
   * tool. Absent when the tool has none.
   */
  headers?: { path: string[]; header: string }[];
  /** The tools/list entry, exactly as sent (name, title, description, schemas, annotations, icons, _meta). */
  wire: { [key: string]: unknown };
  /** OAuth scopes a token needs to call it (manifest `scopes`, with `auth`); absent when none. */
  scopes?: string[];
  /** Manifest `http`: the tool proxies this upstream operation (never on the wire). */
  http?: HttpBindingModel;
  /** The `ui://` URI of the view that shows its results (MCP Apps; `_meta.ui.resourceUri` on the wire). */
  view?: string;
  /** Who may call it (`_meta.ui.visibility`); absent means both the model and views. */
  visibility?: ToolVisibility[];
}

/** `model`: the agent sees and calls the tool; `app`: views of this server may call it. */
export type ToolVisibility = 'model' | 'app';

/** Manifest `views[]` (MCP Apps): an HTML page served as a `ui://` resource (src/model/views.ts). */
export interface ViewModel {
  uri: string;
  name: string;
  /** The resources/list entry, exactly as sent: mimeType `text/html;profile=mcp-app` and `_meta.ui`. */
  wire: { [key: string]: unknown };
  /** `_meta.ui` of the entry and of the page's content (csp, permissions, domain, prefersBorder); absent when none. */
  ui?: { [key: string]: unknown };
  /** The page, embedded in the generated server. */
  html: string;
}

/**
 * One upstream parameter of an HTTP binding, with OpenAPI's defaults for `style` and `explode` filled
 * in: the very shape the copied runtime serializes (runtime/proxy/serialize.ts), so the two cannot drift.
 */
export type HttpParameterModel = HttpParameter;

/** Manifest `tools[].http`. */
export interface HttpBindingModel {
  method: string;
  path: string;
  parameters: HttpParameterModel[];
  body?: { argument: string; contentType: string; encoding?: 'base64'; files?: string[] };
  /** `upstream.auth` scheme names, in order of preference. */
  auth?: string[];
  wrapOutput?: string;
}

/** One `upstream.auth` scheme: the names of environment variables, never their values. */
export type UpstreamAuthModel =
  | { type: 'bearer'; env: string }
  | { type: 'apiKey'; in: 'header' | 'query' | 'cookie'; name: string; env: string }
  | { type: 'basic'; usernameEnv: string; passwordEnv: string }
  | { type: 'oauth2ClientCredentials'; tokenUrl: string; clientIdEnv: string; clientSecretEnv: string; scopes?: string[]; audience?: string };

/** Manifest `upstream`: the HTTP API proxied tools call. */
export interface UpstreamModel {
  baseUrl: string;
  variables?: Record<string, { default: string; env?: string; enum?: string[] }>;
  timeoutMs?: number;
  maxResponseBytes?: number;
  headers?: Record<string, string>;
  auth?: Record<string, UpstreamAuthModel>;
  /** The OpenAPI description it was imported from. */
  source?: { openapi: string; sha256?: string };
}

export interface ResourceModel {
  uri: string;
  name: string;
  ids: Identifiers;
  /** The resources/list entry, exactly as sent. */
  wire: { [key: string]: unknown };
  /** OAuth scopes a token needs to use it (manifest `scopes`, with `auth`); absent when none. */
  scopes?: string[];
}

export interface ResourceTemplateModel {
  uriTemplate: string;
  name: string;
  ids: Identifiers;
  /** `{var}` names in the template, in order of appearance. */
  variables: string[];
  /** Its resources are listed at run time by a handler (manifest `list: true`). */
  list?: boolean;
  /** Manifest `variables.<name>.enum`: default completions, by variable. */
  variableEnums?: Record<string, string[]>;
  wire: { [key: string]: unknown };
  /** OAuth scopes a token needs to use it (manifest `scopes`, with `auth`); absent when none. */
  scopes?: string[];
}

export interface PromptArgumentModel {
  name: string;
  required: boolean;
  description?: string;
  /** Manifest `enum`: default completions. */
  enum?: string[];
}

export interface PromptModel {
  name: string;
  ids: Identifiers;
  arguments: PromptArgumentModel[];
  wire: { [key: string]: unknown };
  /** OAuth scopes a token needs to use it (manifest `scopes`, with `auth`); absent when none. */
  scopes?: string[];
}

export interface ServerIdentity {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: { [key: string]: unknown }[];
  instructions?: string;
}

/** The 2026-07-28 caching hints of one list. */
export interface CacheHintModel {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/** How access tokens are checked (manifest `auth.verifier`): exactly one kind. */
export type TokenVerifierModel =
  | { jwt: { issuer: string; audience?: string; algorithms: string[]; jwksUri?: string; clockSkewSeconds?: number; requireTyp?: boolean } }
  | { introspection: { endpoint: string; clientId: string; clientSecretEnv: string } }
  | { hook: true };

/** Manifest `auth`: the HTTP server is an OAuth 2.1 resource server. */
export interface AuthModel {
  /** Canonical URI of the MCP endpoint: the metadata's `resource` and the tokens' audience. */
  resource: string;
  authorizationServers: string[];
  scopesSupported?: string[];
  /** Scopes every request needs. */
  scopes?: string[];
  verifier: TokenVerifierModel;
}

export interface ServiceModel {
  server: ServerIdentity;
  /** Revisions to serve, newest first. */
  protocolVersions: string[];
  /** Advertise `listChanged` on tools, prompts and resources (manifest `protocol.listChanged`). */
  listChanged: boolean;
  /** Advertise `resources.subscribe` (manifest `protocol.subscribe`). */
  subscribe: boolean;
  /** Page size of the list methods (manifest `protocol.pageSize`); absent: the runtime's 100. */
  pageSize?: number;
  /** `capabilities.extensions` (manifest `protocol.extensions`), sent in 2026-07-28. */
  extensions?: { [key: string]: { [key: string]: unknown } };
  /** 2026-07-28 caching hints per list (manifest `protocol.caching`). */
  caching?: Partial<Record<'tools' | 'prompts' | 'resources' | 'resourceTemplates', CacheHintModel>>;
  /** In manifest order (the order of tools/list). */
  tools: ToolModel[];
  resources: ResourceModel[];
  resourceTemplates: ResourceTemplateModel[];
  prompts: PromptModel[];
  /** Manifest `views` (MCP Apps); absent when there are none (the output is as without this field). */
  views?: ViewModel[];
  /** Manifest `auth`; absent: no authorization (the output is as without this field). */
  auth?: AuthModel;
  /** Manifest `upstream`; absent when no tool proxies an HTTP API. */
  upstream?: UpstreamModel;
  /** Manifest path as the user named it, for messages; never printed into generated files. */
  source: string;
}
