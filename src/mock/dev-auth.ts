/**
 * `mcp-gen mock --enforce-auth`: the manifest's `auth` section enforced with one development token
 * instead of an authorization server. The token is random per start and grants every scope the
 * manifest names, so a client can be tried against the 401 (no token), the bearer header and the
 * resource metadata before a real issuer exists. Without the flag the mock serves unprotected and
 * says so (mock-command.ts).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer as createNetServer } from 'node:net';
import { authSettings } from '../emit/server/server-file.js';
import type { ServiceModel } from '../model/service-model.js';
import { createResourceServerAuth, InvalidToken, type AuthSettings, type ResourceServerAuth } from '../runtime/auth/index.js';
import type { HttpListener, McpServer } from '../runtime/index.js';

export interface MockAuth {
  auth: ResourceServerAuth;
  /** The one access token the mock accepts (`Authorization: Bearer <token>`). */
  token: string;
  /** The scopes it grants: every scope of the manifest. */
  scopes: string[];
}

/** Every scope the manifest names: supported, required everywhere, and per tool, prompt and resource. */
export function manifestScopes(model: ServiceModel): string[] {
  const all = [
    ...(model.auth?.scopesSupported ?? []),
    ...(model.auth?.scopes ?? []),
    ...[...model.tools, ...model.prompts, ...model.resources, ...model.resourceTemplates].flatMap((item) => item.scopes ?? []),
  ];
  return [...new Set(all)].sort();
}

/** Undefined when the manifest has no `auth` section. `resource` is where the mock serves. */
export function mockAuth(model: ServiceModel, resource: string, log: (line: string) => void): MockAuth | undefined {
  if (model.auth === undefined) return undefined;
  const token = `mcp-gen-mock-${randomBytes(24).toString('base64url')}`;
  const expected = Buffer.from(token);
  const scopes = manifestScopes(model);
  const verifier = {
    async verify(given: string) {
      const bytes = Buffer.from(given);
      if (bytes.length !== expected.length || !timingSafeEqual(bytes, expected)) throw new InvalidToken('not the development token this mock printed at start-up');
      return { subject: 'mcp-gen-mock', clientId: 'mcp-gen-mock', scopes, claims: { sub: 'mcp-gen-mock', scope: scopes.join(' ') }, expiresAt: undefined };
    },
  };
  const settings = authSettings(model) as unknown as AuthSettings;
  return { auth: createResourceServerAuth(settings, { resource, verifier, log }), token, scopes };
}

/** What a client must know about a mock's auth: absent when the manifest has no `auth` section. */
export type MockAuthState = { enforced: false } | { enforced: true; token: string; scopes: string[] };

/**
 * Serves the mock on HTTP at `/mcp`, protected with a development token when `enforceAuth` (and the
 * manifest has `auth`). With port 0 a free port is chosen first: the resource metadata names it.
 */
export async function listenMock(
  server: McpServer,
  model: ServiceModel,
  options: { port: number; host: string; enforceAuth: boolean; log: (line: string) => void },
): Promise<{ listener: HttpListener; auth: MockAuthState | undefined }> {
  const { host, enforceAuth } = options;
  const port = enforceAuth && model.auth !== undefined && options.port === 0 ? await freePort(host) : options.port;
  const protection = enforceAuth ? mockAuth(model, `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`, options.log) : undefined;
  const listener = await server.listenHttp({ port, host, path: '/mcp', ...(protection ? { auth: protection.auth } : {}) });
  const auth: MockAuthState | undefined = model.auth === undefined ? undefined : protection ? { enforced: true, token: protection.token, scopes: protection.scopes } : { enforced: false };
  return { listener, auth };
}

/** A port nothing listens on now. */
async function freePort(host: string): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((done, fail) => probe.once('error', fail).listen(0, host, done));
  const address = probe.address();
  await new Promise<void>((done) => probe.close(() => done()));
  return typeof address === 'object' && address !== null ? address.port : 0;
}
