/**
 * A protected MCP endpoint and its authorization server in one small node:http server, for the
 * client's OAuth tests: every request is recorded, and each test turns the knobs it needs (metadata
 * fields, where documents are served, what the endpoint demands). The MCP side answers just enough
 * of 2026-07-28 (`server/discover`, `tools/list`) for a session to open and make a call.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  headers: IncomingMessage['headers'];
}

export interface Knobs {
  /** Issuer path (`/tenant1`): the authorization server's endpoints live under it. */
  issuerPath: string;
  /** Overrides for the authorization server metadata (`undefined` values remove a field). */
  asMetadata: Record<string, unknown>;
  /** Well-known paths the metadata is served at (default: RFC 8414 with path insertion). */
  asMetadataPaths?: string[];
  /** Paths the protected resource metadata is served at. */
  prmPaths: string[];
  /** Overrides for the protected resource metadata. */
  prm: Record<string, unknown>;
  /** `resource_metadata` in the 401 challenge (default: the first of prmPaths). */
  challengeResourceMetadata: boolean;
  /** `scope` in the 401 challenge. */
  challengeScope?: string;
  /** What the redirect carries as `iss`: the issuer, another value, or nothing. */
  iss: 'correct' | 'wrong' | 'omit';
  /** Scopes a token must carry for tools/list (else 403 insufficient_scope naming them). */
  toolsScope?: string;
  /** Access tokens expire after this many seconds (`expires_in`). */
  expiresIn: number;
  /** Hand out refresh tokens. */
  refreshTokens: boolean;
  /** A scope the authorization server never grants, even when asked. */
  withheldScope?: string;
}

export class AuthFixture {
  readonly requests: Recorded[] = [];
  knobs: Knobs;
  private server: Server | undefined;
  /** Tokens the endpoint accepts, with their scopes. */
  private readonly tokens = new Map<string, string>();
  private readonly refresh = new Map<string, string>();
  private codes = new Map<string, { challenge: string; scope: string }>();
  origin = '';

  constructor(knobs: Partial<Knobs> = {}) {
    this.knobs = {
      issuerPath: '',
      asMetadata: {},
      prmPaths: ['/.well-known/oauth-protected-resource/mcp'],
      prm: {},
      challengeResourceMetadata: true,
      iss: 'omit',
      expiresIn: 3600,
      refreshTokens: false,
      ...knobs,
    };
  }

  get url(): string {
    return `${this.origin}/mcp`;
  }

  get issuer(): string {
    return `${this.origin}${this.knobs.issuerPath}`;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** Requests to one path (query ignored). */
  to(path: string): Recorded[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** A token the endpoint accepts without the authorization server having issued it (the app's own). */
  acceptToken(token: string, scope = ''): void {
    this.tokens.set(token, scope);
  }

  /** Makes every token issued so far invalid (as if they expired on the server). */
  revokeAccessTokens(): void {
    this.tokens.clear();
  }

  /** The app's "browser": follows the authorization URL to the redirect URI. */
  readonly browser = async (url: URL): Promise<string> => {
    const response = await fetch(url, { redirect: 'manual' });
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (location === null) throw new Error(`authorize answered ${response.status}`);
    return location;
  };

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.origin);
    const body = await new Promise<string>((resolve) => {
      let text = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve(text));
    });
    const type = String(request.headers['content-type'] ?? '');
    const form = type.startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(body) : new URLSearchParams();
    this.requests.push({ method: request.method ?? '', path: url.pathname, query: url.searchParams, form, headers: request.headers });
    const json = (status: number, value: unknown, headers: Record<string, string> = {}): void => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    };
    const k = this.knobs;
    const base = `${this.origin}${k.issuerPath}`;

    if (request.method === 'GET' && k.prmPaths.includes(url.pathname)) {
      return json(200, { resource: this.url, authorization_servers: [this.issuer], ...k.prm });
    }
    const metadataPaths = k.asMetadataPaths ?? [`/.well-known/oauth-authorization-server${k.issuerPath}`];
    if (request.method === 'GET' && metadataPaths.includes(url.pathname)) {
      const metadata: Record<string, unknown> = {
        issuer: this.issuer,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      };
      for (const [key, value] of Object.entries(k.asMetadata)) {
        if (value === undefined) delete metadata[key];
        else metadata[key] = value;
      }
      return json(200, metadata);
    }
    if (url.pathname === `${k.issuerPath}/register` && request.method === 'POST') {
      const asked = JSON.parse(body) as Record<string, unknown>;
      return json(201, { ...asked, client_id: `client-${randomUUID()}` });
    }
    if (url.pathname === `${k.issuerPath}/authorize`) {
      const code = randomUUID();
      this.codes.set(code, { challenge: url.searchParams.get('code_challenge') ?? '', scope: url.searchParams.get('scope') ?? '' });
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      if (k.iss === 'correct') back.searchParams.set('iss', this.issuer);
      if (k.iss === 'wrong') back.searchParams.set('iss', 'https://elsewhere.example');
      response.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === `${k.issuerPath}/token` && request.method === 'POST') {
      let scope: string;
      if (form.get('grant_type') === 'authorization_code') {
        const code = this.codes.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (code === undefined || code.challenge !== challenge) return json(400, { error: 'invalid_grant' });
        scope = code.scope;
      } else if (form.get('grant_type') === 'refresh_token') {
        const known = this.refresh.get(form.get('refresh_token') ?? '');
        if (known === undefined) return json(400, { error: 'invalid_grant' });
        scope = known;
      } else if (form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
        if (form.get('assertion') !== 'workload-jwt') return json(400, { error: 'invalid_grant' });
        scope = form.get('scope') ?? '';
      } else if (form.get('grant_type') === 'client_credentials') {
        scope = form.get('scope') ?? '';
      } else {
        return json(400, { error: 'unsupported_grant_type' });
      }
      scope = scope.split(' ').filter((s) => s !== k.withheldScope).join(' ');
      const token = `at-${randomUUID()}`;
      this.tokens.set(token, scope);
      const answer: Record<string, unknown> = { access_token: token, token_type: 'Bearer', expires_in: k.expiresIn, scope };
      if (k.refreshTokens) {
        const refresh = `rt-${randomUUID()}`;
        this.refresh.set(refresh, scope);
        answer['refresh_token'] = refresh;
      }
      return json(200, answer);
    }
    // An enterprise identity provider: exchanges the ID token `user-id-token` for an ID-JAG (RFC 8693).
    if (url.pathname === '/idp/token' && request.method === 'POST') {
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:token-exchange' || form.get('subject_token') !== 'user-id-token') return json(400, { error: 'invalid_grant' });
      return json(200, { access_token: 'workload-jwt', issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A' });
    }
    if (url.pathname === '/mcp' && request.method === 'POST') {
      const prm = `${this.origin}${k.prmPaths[0]}`;
      const token = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
      const granted = token === undefined ? undefined : this.tokens.get(token);
      if (granted === undefined) {
        const params = [k.challengeResourceMetadata ? `resource_metadata="${prm}"` : undefined, k.challengeScope ? `scope="${k.challengeScope}"` : undefined].filter(Boolean);
        response.writeHead(401, { 'www-authenticate': `Bearer${params.length ? ` ${params.join(', ')}` : ''}` }).end();
        return;
      }
      const message = JSON.parse(body) as { id?: number; method: string };
      if (message.method === 'tools/list' && k.toolsScope !== undefined && !k.toolsScope.split(' ').every((s) => granted.split(' ').includes(s))) {
        response.writeHead(403, { 'www-authenticate': `Bearer error="insufficient_scope", scope="${k.toolsScope}", resource_metadata="${prm}"` }).end();
        return;
      }
      const result =
        message.method === 'server/discover'
          ? { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} } }
          : { resultType: 'complete', tools: [] };
      return json(200, { jsonrpc: '2.0', id: message.id, result });
    }
    response.writeHead(404).end();
  }
}
