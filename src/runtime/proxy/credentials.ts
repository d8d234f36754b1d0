/**
 * The upstream's credentials (manifest `upstream.auth`): every secret is read from an environment
 * variable the manifest names, at call time, and added to a request the proxy built itself. Nothing
 * of the MCP request (its headers, its access token) ever reaches this module: the specification
 * forbids passing the caller's token through.
 */

/** One credential scheme, by the names of the environment variables holding its secrets. */
export type UpstreamAuth =
  | { type: 'bearer'; env: string }
  | { type: 'apiKey'; in: 'header' | 'query' | 'cookie'; name: string; env: string }
  | { type: 'basic'; usernameEnv: string; passwordEnv: string }
  | {
      type: 'oauth2ClientCredentials';
      tokenUrl: string;
      clientIdEnv: string;
      clientSecretEnv: string;
      scopes?: string[];
      audience?: string;
    };

/** Environment variables, as `process.env` holds them. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** What a scheme adds to a request. */
export interface Credential {
  headers: [string, string][];
  query: string[];
  cookies: string[];
}

/** The environment variables a scheme reads. */
export function variablesOf(scheme: UpstreamAuth): string[] {
  switch (scheme.type) {
    case 'bearer':
    case 'apiKey':
      return [scheme.env];
    case 'basic':
      return [scheme.usernameEnv, scheme.passwordEnv];
    case 'oauth2ClientCredentials':
      return [scheme.clientIdEnv, scheme.clientSecretEnv];
  }
}

/** `btoa` of the UTF-8 bytes (btoa alone takes Latin-1 only). */
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

interface CachedToken {
  token: string;
  /** Milliseconds since the epoch after which it is fetched again. */
  renewAt: number;
}

/** Tokens of the client-credentials schemes, by scheme name; one fetch at a time per scheme. */
export class TokenCache {
  private readonly tokens = new Map<string, CachedToken>();
  private readonly pending = new Map<string, Promise<string>>();

  constructor(
    private readonly fetchImpl: typeof fetch,
    /** `tokenUrl` with the upstream's `{variables}` filled in. */
    private readonly urlOf: (template: string, env: Environment) => string,
  ) {}

  async token(
    name: string,
    scheme: Extract<UpstreamAuth, { type: 'oauth2ClientCredentials' }>,
    env: Environment,
    signal: AbortSignal,
  ): Promise<string> {
    const cached = this.tokens.get(name);
    if (cached !== undefined && Date.now() < cached.renewAt) return cached.token;
    let running = this.pending.get(name);
    if (running === undefined) {
      running = this.fetchToken(name, scheme, env, signal).finally(() => this.pending.delete(name));
      this.pending.set(name, running);
    }
    return running;
  }

  /** RFC 6749 section 4.4, the client authenticated with HTTP Basic (section 2.3.1). */
  private async fetchToken(
    name: string,
    scheme: Extract<UpstreamAuth, { type: 'oauth2ClientCredentials' }>,
    env: Environment,
    signal: AbortSignal,
  ): Promise<string> {
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scheme.scopes !== undefined && scheme.scopes.length > 0)
      form.set('scope', scheme.scopes.join(' '));
    if (scheme.audience !== undefined) form.set('audience', scheme.audience);
    const id = encodeURIComponent(env[scheme.clientIdEnv] ?? '');
    const secret = encodeURIComponent(env[scheme.clientSecretEnv] ?? '');
    const response = await this.fetchImpl(this.urlOf(scheme.tokenUrl, env), {
      method: 'POST',
      headers: {
        authorization: `Basic ${base64(`${id}:${secret}`)}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      redirect: 'error',
      signal,
    });
    const answer = (await response.json().catch(() => undefined)) as
      { access_token?: unknown; expires_in?: unknown } | undefined;
    if (!response.ok || typeof answer?.access_token !== 'string') {
      throw new Error(
        `the token endpoint of upstream scheme ${name} answered ${response.status} without an access_token`,
      );
    }
    // Renewed a minute early (or at half its life, for short ones), so no request carries an expired token.
    const lifetime =
      typeof answer.expires_in === 'number' && answer.expires_in > 0
        ? answer.expires_in * 1000
        : 3_600_000;
    this.tokens.set(name, {
      token: answer.access_token,
      renewAt: Date.now() + Math.max(lifetime / 2, lifetime - 60_000),
    });
    return answer.access_token;
  }
}

/**
 * The first of `names` whose environment variables are all set, applied; undefined when none is
 * (the request then goes without credentials).
 */
export async function credentialFor(
  names: readonly string[],
  schemes: Readonly<Record<string, UpstreamAuth>>,
  env: Environment,
  tokens: TokenCache,
  signal: AbortSignal,
): Promise<Credential | undefined> {
  for (const name of names) {
    const scheme = schemes[name];
    if (scheme === undefined || !variablesOf(scheme).every((v) => (env[v] ?? '') !== '')) continue;
    const credential: Credential = { headers: [], query: [], cookies: [] };
    switch (scheme.type) {
      case 'bearer':
        credential.headers.push(['authorization', `Bearer ${env[scheme.env] ?? ''}`]);
        break;
      case 'apiKey': {
        const key = env[scheme.env] ?? '';
        if (scheme.in === 'header') credential.headers.push([scheme.name, key]);
        else if (scheme.in === 'query')
          credential.query.push(`${encodeURIComponent(scheme.name)}=${encodeURIComponent(key)}`);
        else credential.cookies.push(`${scheme.name}=${encodeURIComponent(key)}`);
        break;
      }
      case 'basic':
        credential.headers.push([
          'authorization',
          `Basic ${base64(`${env[scheme.usernameEnv] ?? ''}:${env[scheme.passwordEnv] ?? ''}`)}`,
        ]);
        break;
      case 'oauth2ClientCredentials':
        credential.headers.push([
          'authorization',
          `Bearer ${await tokens.token(name, scheme, env, signal)}`,
        ]);
        break;
    }
    return credential;
  }
  return undefined;
}
