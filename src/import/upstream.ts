/**
 * The manifest's `upstream` block from the description's `servers` and `securitySchemes`, and each
 * operation's `http.auth` from its `security` requirement. Secrets never appear in the manifest: each
 * scheme names environment variables, named after the server and what the scheme's name adds
 * (`PETSTORE_API_KEY`, `ACME_ADMIN_TOKEN`; naming.ts); each server variable one named
 * `UPSTREAM_<VARIABLE>`.
 */
import { credentialPrefix, envName } from './naming.js';

type Json = { [key: string]: unknown };

export interface UpstreamResult {
  upstream: Json;
  /** Scheme names written to `upstream.auth`. */
  schemes: Set<string>;
  notes: { pointer: string; message: string }[];
}

/**
 * @param serverName the manifest's server name: the first word of every credential's variables
 * @param baseUrlOverride `--base-url`: wins over `servers`
 * @param sourceUrl the URL the description came from: a relative server URL is resolved against it
 */
export function upstreamOf(document: Json, serverName: string, baseUrlOverride: string | undefined, sourceUrl: string | undefined): UpstreamResult {
  const notes: UpstreamResult['notes'] = [];
  const upstream: Json = {};
  const servers = Array.isArray(document['servers']) ? document['servers'].filter(isObject) : [];
  const server = servers[0];
  let baseUrl = baseUrlOverride ?? (typeof server?.['url'] === 'string' ? server['url'] : undefined);
  const variables: Json = {};
  if (baseUrlOverride === undefined && server && isObject(server['variables'])) {
    for (const [name, variable] of Object.entries(server['variables'])) {
      if (!isObject(variable) || !/^[A-Za-z0-9_.-]+$/.test(name) || !baseUrl?.includes(`{${name}}`)) continue;
      const entry: Json = { default: String(variable['default'] ?? '') };
      // Prefixed: bare names like HOSTNAME, PORT or USER are already set by shells and containers.
      entry['env'] = `UPSTREAM_${envName(name)}`;
      if (Array.isArray(variable['enum']) && variable['enum'].length > 0) entry['enum'] = [...new Set(variable['enum'].map(String))];
      if (Array.isArray(entry['enum']) && !(entry['enum'] as string[]).includes(entry['default'] as string)) (entry['enum'] as string[]).push(entry['default'] as string);
      if (typeof variable['description'] === 'string') entry['description'] = variable['description'];
      variables[name] = entry;
    }
  }
  // Variables before `://` (a `{scheme}`) become their defaults: the base URL starts with http(s)://.
  const schemeEnd = baseUrl?.indexOf('://') ?? -1;
  if (baseUrl !== undefined && schemeEnd > 0 && baseUrl.slice(0, schemeEnd).includes('{')) {
    const head = baseUrl.slice(0, schemeEnd).replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const value = (variables[name] as Json | undefined)?.['default'];
      delete variables[name];
      return typeof value === 'string' ? value : whole;
    });
    baseUrl = head + baseUrl.slice(schemeEnd);
  }
  if (baseUrl !== undefined && !/^https?:\/\//i.test(baseUrl)) {
    if (sourceUrl !== undefined) baseUrl = new URL(baseUrl, sourceUrl).href;
    else {
      notes.push({ pointer: '/servers', message: `the server URL '${baseUrl}' is relative: upstream.baseUrl is https://localhost${baseUrl.startsWith('/') ? '' : '/'}${baseUrl}; set the real one in the manifest or pass --base-url` });
      baseUrl = `https://localhost${baseUrl.startsWith('/') ? '' : '/'}${baseUrl}`;
    }
  }
  if (baseUrl === undefined) {
    notes.push({ pointer: '', message: 'the description names no server: upstream.baseUrl is https://localhost; set the real one in the manifest or pass --base-url' });
    baseUrl = 'https://localhost';
  }
  upstream['baseUrl'] = baseUrl.replace(/\/+$/, '') || baseUrl;
  if (Object.keys(variables).length > 0) upstream['variables'] = variables;

  const schemes = new Set<string>();
  const auth: Json = {};
  const components = isObject(document['components']) ? document['components'] : {};
  const securitySchemes = isObject(components['securitySchemes']) ? components['securitySchemes'] : {};
  const usedEnv = new Set<string>();
  for (const [name, raw] of Object.entries(securitySchemes)) {
    if (!isObject(raw) || !/^[A-Za-z0-9_.-]{1,64}$/.test(name)) continue;
    let scheme = schemeOf(credentialPrefix(serverName, name), raw);
    // Two schemes that would read the same variable keep their whole names apart.
    if (scheme !== undefined && envVariables(scheme).some((env) => usedEnv.has(env))) scheme = schemeOf(`${envName(serverName)}_${envName(name)}`, raw);
    if (scheme === undefined) {
      notes.push({ pointer: `/components/securitySchemes/${name}`, message: `security scheme '${name}' (${String(raw['type'])}${raw['scheme'] ? ` ${String(raw['scheme'])}` : ''}) is left out: the generated proxy cannot send it` });
      continue;
    }
    for (const env of envVariables(scheme)) usedEnv.add(env);
    auth[name] = scheme;
    schemes.add(name);
  }
  if (schemes.size > 0) upstream['auth'] = auth;
  return { upstream, schemes, notes };
}

function envVariables(scheme: Json): string[] {
  return Object.entries(scheme).filter(([key, value]) => /(?:^env|Env)$/.test(key) && typeof value === 'string').map(([, value]) => value as string);
}

function schemeOf(env: string, scheme: Json): Json | undefined {
  const type = scheme['type'];
  if (type === 'http' && typeof scheme['scheme'] === 'string') {
    const kind = scheme['scheme'].toLowerCase();
    if (kind === 'bearer') return { type: 'bearer', env: `${env}_TOKEN` };
    if (kind === 'basic') return { type: 'basic', usernameEnv: `${env}_USERNAME`, passwordEnv: `${env}_PASSWORD` };
    return undefined;
  }
  if (type === 'apiKey' && typeof scheme['name'] === 'string' && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(scheme['name'])) {
    const where = scheme['in'];
    if (where !== 'header' && where !== 'query' && where !== 'cookie') return undefined;
    return { type: 'apiKey', in: where, name: scheme['name'], env: `${env}_API_KEY` };
  }
  if (type === 'oauth2' && isObject(scheme['flows'])) {
    const flow = scheme['flows']['clientCredentials'];
    if (isObject(flow) && typeof flow['tokenUrl'] === 'string' && /^https?:\/\/[^\s#]+$/.test(flow['tokenUrl'])) {
      const scopes = isObject(flow['scopes']) ? Object.keys(flow['scopes']) : [];
      return { type: 'oauth2ClientCredentials', tokenUrl: flow['tokenUrl'], clientIdEnv: `${env}_CLIENT_ID`, clientSecretEnv: `${env}_CLIENT_SECRET`, ...(scopes.length > 0 ? { scopes } : {}) };
    }
    // Another flow signs a person in, which a server cannot do: the token it yields is a bearer token.
    return { type: 'bearer', env: `${env}_TOKEN` };
  }
  if (type === 'openIdConnect') return { type: 'bearer', env: `${env}_TOKEN` };
  return undefined;
}

/**
 * The schemes an operation may use, in order: the first requirement alternative whose schemes all
 * came through (an empty alternative means no credentials are needed). Undefined: send none.
 */
export function authOf(document: Json, operation: Json, schemes: ReadonlySet<string>): string[] | undefined {
  const requirements = Array.isArray(operation['security']) ? operation['security'] : Array.isArray(document['security']) ? document['security'] : [];
  const names: string[] = [];
  for (const requirement of requirements) {
    if (!isObject(requirement)) continue;
    const keys = Object.keys(requirement);
    // The proxy sends one scheme per request: an alternative needing several at once is usable only alone.
    if (keys.length === 1 && schemes.has(keys[0]!) && !names.includes(keys[0]!)) names.push(keys[0]!);
  }
  return names.length > 0 ? names : undefined;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
