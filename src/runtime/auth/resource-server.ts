/// <reference types="node" />
/**
 * The HTTP server as an OAuth 2.1 resource server (the `ResourceServerAuth` seam of http.ts): the
 * Protected Resource Metadata (RFC 9728), bearer tokens from the Authorization header only
 * (RFC 6750; never the query string), each checked by a `TokenVerifier` once and then remembered
 * until it expires (token-cache.ts), and the challenges: 401 without a usable token, 403
 * `insufficient_scope` naming every scope the operation needs. Nothing here ever writes a token
 * into a log line, a message or a result.
 */
import type { HttpRequestIn } from '../transports/http/http-exchange.js';
import type { AuthInfo } from '../api.js';
import type { AuthRefusal, ResourceServerAuth } from '../transports/http/http-auth.js';
import { ScopeRules } from './scopes.js';
import { InvalidToken, type AuthSettings, type TokenVerifier } from './settings.js';
import { TokenCache } from './token-cache.js';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';
/** RFC 6750 b64token, the whole header value after `Bearer `. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

export class ResourceServer implements ResourceServerAuth {
  private readonly settings: AuthSettings;
  private readonly verifier: TokenVerifier;
  private readonly log: (line: string) => void;
  /** Verdicts (the caller, or a 403 for lacking the global scopes) by `Authorization` header. */
  private readonly cache = new TokenCache<AuthInfo | AuthRefusal>();
  private readonly rules: ScopeRules;
  private readonly metadata: string;
  private readonly metadataPaths: ReadonlySet<string>;
  /** `resource_metadata="…"`, in every challenge. */
  private readonly metadataParam: string;

  constructor(settings: AuthSettings, verifier: TokenVerifier, log: (line: string) => void) {
    this.settings = settings;
    this.verifier = verifier;
    this.log = log;
    this.rules = new ScopeRules(settings);
    // Key rotation: a verdict resting on a key the issuer no longer publishes goes.
    verifier.onKeysChanged?.((held) =>
      this.cache.forget((kid) => kid !== undefined && held.has(kid)),
    );
    const resource = new URL(settings.resource);
    const suffix = resource.pathname === '/' ? '' : resource.pathname;
    // The path-suffixed form is the one a client tries first; the root form serves clients that only know the host.
    this.metadataPaths = new Set([`${WELL_KNOWN}${suffix}`, WELL_KNOWN]);
    this.metadataParam = `resource_metadata=${quoted(`${resource.origin}${WELL_KNOWN}${suffix}`)}`;
    this.metadata = JSON.stringify({
      resource: settings.resource,
      authorization_servers: settings.authorizationServers,
      ...(settings.scopesSupported === undefined
        ? {}
        : { scopes_supported: settings.scopesSupported }),
      bearer_methods_supported: ['header'],
    });
  }

  metadataAt(path: string): string | undefined {
    return this.metadataPaths.has(path) ? this.metadata : undefined;
  }

  authenticate(req: HttpRequestIn): AuthInfo | AuthRefusal | Promise<AuthInfo | AuthRefusal> {
    if (tokenInQuery(req.url ?? '')) {
      return this.refuse(
        400,
        'invalid_request',
        'access tokens are accepted in the Authorization header only, never in the URL',
      );
    }
    // Node keeps the first of two Authorization headers: which one was meant is anyone's guess.
    const raw = req.headers['authorization'];
    if (Array.isArray(raw) || repeatedAuthorization(req.rawHeaders))
      return this.refuse(
        400,
        'invalid_request',
        'the request has more than one Authorization header',
      );
    const header = raw as string | undefined;
    if (header !== undefined) {
      // A reused token: the verdict given the first time, synchronously (no parse, no promise).
      const known = this.cache.get(header, Date.now(), req.socket);
      if (known !== undefined) return known;
    }
    if (header === undefined || !/^Bearer(?: |$)/i.test(header)) {
      // No token at all: a bare challenge (RFC 6750 3.1), with the scopes to ask for.
      const scope = this.settings.scopesSupported ?? this.settings.scopes;
      return {
        status: 401,
        challenge: this.challenge(scope === undefined ? [] : [['scope', scope.join(' ')]]),
        message: 'Unauthorized: an access token is required',
      };
    }
    const token = BEARER.exec(header)?.[1];
    if (token === undefined)
      return this.refuse(
        400,
        'invalid_request',
        'the Authorization header is not a well-formed Bearer token',
      );
    return this.verify(header, token);
  }

  /** A token seen for the first time (or again after it left the cache): checked, and its verdict kept. */
  private async verify(header: string, token: string): Promise<AuthInfo | AuthRefusal> {
    let info: AuthInfo;
    try {
      info = await this.verifier.verify(token);
    } catch (error) {
      if (error instanceof InvalidToken) return this.refuse(401, 'invalid_token', error.message);
      this.log(
        `access token check failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      return {
        status: 503,
        message: 'Service Unavailable: the access token cannot be checked now',
      };
    }
    // The global scopes are checked once: a token lacking them gets the same 403 until it expires.
    const verdict = this.missing(this.settings.scopes ?? [], info) ?? info;
    this.cache.set(header, verdict, info.expiresAt, Date.now(), this.verifier.keyIdOf?.(token));
    return verdict;
  }

  authorize(message: unknown, req: HttpRequestIn, auth: AuthInfo): AuthRefusal | undefined {
    return this.missing(this.rules.required(message, req.headers), auth);
  }

  /** 403 naming every scope the operation needs (global ones too), when the token lacks any. */
  private missing(required: readonly string[], auth: AuthInfo): AuthRefusal | undefined {
    if (required.every((scope) => auth.scopes.includes(scope))) return undefined;
    const all = [...new Set([...(this.settings.scopes ?? []), ...required])];
    return this.refuse(
      403,
      'insufficient_scope',
      `this operation needs the scopes ${all.join(' ')}`,
      all,
    );
  }

  private refuse(
    status: 400 | 401 | 403,
    error: string,
    description: string,
    scope?: string[],
  ): AuthRefusal {
    const params: [string, string][] = [['error', error]];
    if (scope !== undefined) params.push(['scope', scope.join(' ')]);
    params.push(['error_description', description]);
    const what = status === 400 ? 'Bad Request' : status === 401 ? 'Unauthorized' : 'Forbidden';
    return { status, challenge: this.challenge(params), message: `${what}: ${description}` };
  }

  private challenge(params: [string, string][]): string {
    return `Bearer ${[...params.map(([name, value]) => `${name}=${quoted(value)}`), this.metadataParam].join(', ')}`;
  }
}

/** An RFC 7230 quoted-string. */
function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/** Whether `rawHeaders` (name, value, name, value…) has Authorization more than once. */
function repeatedAuthorization(rawHeaders: readonly string[]): boolean {
  let seen = false;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length !== 13) continue;
    // The two usual spellings first: no lower-cased copy for them (every request pays this scan).
    if (
      name !== 'authorization' &&
      name !== 'Authorization' &&
      name.toLowerCase() !== 'authorization'
    )
      continue;
    if (seen) return true;
    seen = true;
  }
  return false;
}

function tokenInQuery(url: string): boolean {
  const query = url.indexOf('?');
  return query !== -1 && new URLSearchParams(url.slice(query + 1)).has('access_token');
}
