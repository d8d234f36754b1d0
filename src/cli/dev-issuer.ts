/**
 * A local OAuth 2.1 authorization server for trying a generated server's `auth` offline
 * (`mcp-gen dev-issuer`, docs/authorization.md). It holds one RS256 key made at start, publishes
 * its metadata (RFC 8414, and the OpenID discovery path many verifiers read) and its JWKS, and
 * issues JWT access tokens (RFC 9068) to one confidential client by client_credentials, the
 * audience being the `resource` asked for (RFC 8707). Signing and the JWKS are jose's.
 * Development only: no users, no consent, nothing kept after it stops.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

export interface DevIssuerOptions {
  port: number;
  host: string;
  /** The audience of tokens whose request names no `resource`. */
  resource: string;
  /** Lifetime of every token, in seconds. */
  expiresIn: number;
}

export interface TokenRequest {
  subject: string;
  /** Space-separated, as in the `scope` claim. */
  scope: string;
  audience: string;
}

export interface DevIssuer {
  /** `http://<host>:<port>`: what the `iss` claim says and what a server's `--auth` names. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Signs an access token as the token endpoint would. */
  issue(request: TokenRequest): Promise<string>;
  close(): Promise<void>;
}

/** The one client allowed to ask for tokens; its secret is new at every start. */
const CLIENT_ID = 'dev-client';
/** Token requests are a few form fields: anything longer is refused unread. */
const MAX_BODY_BYTES = 16 * 1024;

export async function startDevIssuer(options: DevIssuerOptions): Promise<DevIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const kid = `dev-${randomBytes(6).toString('base64url')}`;
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } satisfies JWK] };
  const clientSecret = randomBytes(24).toString('base64url');
  let issuer = '';
  const issue = (request: TokenRequest): Promise<string> => signToken(privateKey, kid, issuer, request, options.expiresIn);

  const server = createServer((req, res) => {
    route(req, res).catch(() => {
      if (!res.headersSent) reply(res, 500, { error: 'server_error' });
    });
  });
  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    if (req.method === 'GET' && (path === '/.well-known/oauth-authorization-server' || path === '/.well-known/openid-configuration')) {
      return reply(res, 200, metadata(issuer));
    }
    if (req.method === 'GET' && path === '/jwks') return reply(res, 200, jwks);
    if (path === '/token') {
      if (req.method !== 'POST') return reply(res, 405, { error: 'invalid_request', error_description: 'POST a form to /token' });
      const form = await readForm(req);
      if (form === undefined) return reply(res, 400, { error: 'invalid_request', error_description: 'the body must be an application/x-www-form-urlencoded form under 16 KiB' });
      return answerTokenRequest(req, res, form, { clientSecret, defaultResource: options.resource, expiresIn: options.expiresIn, issue });
    }
    return reply(res, 404, { error: 'not_found', error_description: 'this issuer serves /.well-known/oauth-authorization-server, /jwks and /token' });
  };

  await new Promise<void>((done, fail) => server.once('error', fail).listen(options.port, options.host, done));
  const { port } = server.address() as AddressInfo;
  issuer = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret,
    issue,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

function metadata(issuer: string): Record<string, unknown> {
  return {
    issuer,
    jwks_uri: `${issuer}/jwks`,
    token_endpoint: `${issuer}/token`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    response_types_supported: [],
    id_token_signing_alg_values_supported: ['RS256'],
    subject_types_supported: ['public'],
  };
}

interface TokenEndpoint {
  clientSecret: string;
  defaultResource: string;
  expiresIn: number;
  issue(request: TokenRequest): Promise<string>;
}

/** The client_credentials grant: the client's own name is the token's subject (RFC 9068 2.2). */
async function answerTokenRequest(req: IncomingMessage, res: ServerResponse, form: URLSearchParams, endpoint: TokenEndpoint): Promise<void> {
  const client = clientOf(req, form);
  if (client === undefined || client.id !== CLIENT_ID || !sameSecret(client.secret, endpoint.clientSecret)) {
    res.setHeader('www-authenticate', 'Basic realm="dev-issuer"');
    return reply(res, 401, { error: 'invalid_client', error_description: `authenticate as ${CLIENT_ID} with the secret printed at start` });
  }
  const grant = form.get('grant_type');
  if (grant !== 'client_credentials') return reply(res, 400, { error: 'unsupported_grant_type', error_description: 'only client_credentials is issued here' });
  const resources = form.getAll('resource');
  if (resources.length > 1) return reply(res, 400, { error: 'invalid_target', error_description: 'name one resource: it becomes the audience' });
  const audience = resources[0] ?? endpoint.defaultResource;
  if (!URL.canParse(audience) || audience.includes('#')) return reply(res, 400, { error: 'invalid_target', error_description: 'resource must be an absolute URL without a fragment' });
  const scope = (form.get('scope') ?? '').split(' ').filter((s) => s !== '').join(' ');
  const token = await endpoint.issue({ subject: CLIENT_ID, scope, audience });
  res.setHeader('cache-control', 'no-store');
  return reply(res, 200, { access_token: token, token_type: 'Bearer', expires_in: endpoint.expiresIn, scope });
}

/** HTTP Basic (RFC 6749 2.3.1: both parts form-encoded) or the two form fields. */
function clientOf(req: IncomingMessage, form: URLSearchParams): { id: string; secret: string } | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    const decode = (part: string): string | undefined => {
      try {
        return decodeURIComponent(part.replace(/\+/g, ' '));
      } catch {
        return undefined;
      }
    };
    const id = decode(decoded.slice(0, colon));
    const secret = decode(decoded.slice(colon + 1));
    return id === undefined || secret === undefined ? undefined : { id, secret };
  }
  const id = form.get('client_id');
  const secret = form.get('client_secret');
  return id === null || secret === null ? undefined : { id, secret };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function signToken(key: CryptoKey, kid: string, issuer: string, request: TokenRequest, expiresIn: number): Promise<string> {
  return new SignJWT({ scope: request.scope, client_id: CLIENT_ID })
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid })
    .setIssuer(issuer)
    .setSubject(request.subject)
    .setAudience(request.audience)
    .setIssuedAt()
    .setExpirationTime(`${expiresIn}s`)
    .setJti(randomUUID())
    .sign(key);
}

/** The form of a token request, or undefined when it is not one (wrong type, too long). */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  // Read to the end even when too long, so the refusal can still be sent on this connection.
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return size > MAX_BODY_BYTES ? undefined : new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
