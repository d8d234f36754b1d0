/**
 * Both halves of OAuth against a real authorization server (oidc-provider): a client given only the
 * protected generated server's URL signs in through its 401 — resource metadata, authorization
 * server discovery, PKCE, the `resource` parameter, the redirect's `iss` — calls a tool as the
 * signed-in user, and steps up when a tool needs a scope its token lacks. Our client in both eras,
 * and the official SDK 1.x client's own OAuth provider against the same server.
 */
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport as Sdk1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, requestWith, type ClientSession } from '../../src/runtime/client/index.js';
import { followToCallback } from './support/oidc-provider.js';
import { startProtectedServer, type RunningProtectedServer } from './support/protected-server.js';

let server: RunningProtectedServer;

beforeAll(async () => {
  server = await startProtectedServer();
}, 60_000);

afterAll(async () => {
  await server?.close();
});

/** The "browser": follows the authorization URL's redirects and hands back the redirect it ends at. */
async function browse(url: URL | string): Promise<string> {
  const query = await followToCallback(url.toString());
  return `${server.as.publicClient.redirectUri}?${query.toString()}`;
}

function call(session: ClientSession, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  return requestWith(session, 'tools/call', { name, arguments: args });
}

describe('our client signs in to the protected generated server at oidc-provider', () => {
  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    it(`at ${era}: one sign-in from the 401, a call as the user, a step-up for a wider scope`, async () => {
      const asked: URL[] = [];
      const session = await openSession({
        url: server.url,
        protocolVersions: [era],
        auth: {
          clientId: server.as.publicClient.clientId,
          redirectUrl: server.as.publicClient.redirectUri,
          openAuthorizationUrl: (url) => {
            asked.push(url);
            return browse(url);
          },
        },
      });
      try {
        expect(asked).toHaveLength(1);
        const first = asked[0]!;
        expect(first.origin).toBe(server.as.issuer);
        expect(first.searchParams.get('resource')).toBe(server.url);
        expect(first.searchParams.get('code_challenge_method')).toBe('S256');
        expect(first.searchParams.get('scope')?.split(' ')).toContain('weather:read');
        expect(first.searchParams.get('scope')?.split(' ')).not.toContain('weather:write');

        const who = await call(session, 'whoami', {});
        expect(who['structuredContent']).toEqual({ subject: 'user-1', clientId: server.as.publicClient.clientId, scopes: ['weather:read'] });

        // set_alert needs weather:write: the 403 names it, the client signs in again for the union.
        const alert = await call(session, 'set_alert', { city: 'Faro' });
        expect(alert['isError']).not.toBe(true);
        expect(asked).toHaveLength(2);
        expect(asked[1]!.searchParams.get('scope')?.split(' ').sort()).toEqual(['weather:read', 'weather:write']);
        const after = await call(session, 'whoami', {});
        expect((after['structuredContent'] as { scopes: string[] }).scopes.sort()).toEqual(['weather:read', 'weather:write']);
      } finally {
        await session.close();
      }
    }, 60_000);
  }

  it('without a way to sign in, the 401 is the answer and no tool runs', async () => {
    await expect(openSession({ url: server.url, protocolVersions: ['2026-07-28'] })).rejects.toThrow(/401/);
  });
});

describe("the official SDK 1.x client's OAuth provider against the protected generated server", () => {
  it('discovers, signs in with PKCE and the resource parameter, and calls a tool as the user', async () => {
    const state: { verifier?: string; tokens?: unknown; code?: string; authorizationUrl?: URL } = {};
    const provider: OAuthClientProvider = {
      get redirectUrl() {
        return server.as.publicClient.redirectUri;
      },
      get clientMetadata() {
        return { client_name: 'sdk1 test', redirect_uris: [server.as.publicClient.redirectUri], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' };
      },
      clientInformation: () => ({ client_id: server.as.publicClient.clientId }),
      tokens: () => state.tokens as never,
      saveTokens: (tokens) => {
        state.tokens = tokens;
      },
      redirectToAuthorization: async (url) => {
        state.authorizationUrl = url;
        const code = new URL(await browse(url)).searchParams.get('code');
        if (code !== null) state.code = code;
      },
      saveCodeVerifier: (verifier) => {
        state.verifier = verifier;
      },
      codeVerifier: () => state.verifier!,
    };
    const first = new Sdk1Http(new URL(server.url), { authProvider: provider });
    const client = new Sdk1Client({ name: 'sdk1-oauth', version: '1.0.0' });
    // The SDK stops at the redirect (a browser would come back later) and finishes with the code.
    await expect(client.connect(first)).rejects.toThrow(/Unauthorized/i);
    expect(state.authorizationUrl?.searchParams.get('resource')).toBe(server.url);
    expect(state.code).toBeTypeOf('string');
    await first.finishAuth(state.code!);
    const again = new Sdk1Client({ name: 'sdk1-oauth', version: '1.0.0' });
    await again.connect(new Sdk1Http(new URL(server.url), { authProvider: provider }));
    try {
      const who = await again.callTool({ name: 'whoami', arguments: {} });
      expect(who.structuredContent).toMatchObject({ subject: 'user-1', clientId: server.as.publicClient.clientId });
    } finally {
      await again.close();
    }
  }, 60_000);
});
