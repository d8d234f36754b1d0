/// <reference types="node" />
/**
 * OAuth 2.1 resource-server checks for a generated HTTP server whose manifest has `auth`: the only
 * runtime folder that imports a package (`jose`, for JWTs). Generated `main.ts` loads it, so a
 * server without `auth` never does.
 *
 *   const auth = createResourceServerAuth(authSettings, { log });
 *   await server.listenHttp({ port, auth });
 */
import type { ResourceServerAuth } from '../transports/http/http-auth.js';
import { IntrospectionVerifier } from './introspection.js';
import { JwtVerifier } from './jwt.js';
import { ResourceServer } from './resource-server.js';
import {
  InvalidToken,
  type AuthSettings,
  type TokenVerifier,
  type VerifyToken,
} from './settings.js';

export { InvalidToken } from './settings.js';
export { TokenCache } from './token-cache.js';
export type {
  AuthSettings,
  TokenVerifier,
  TokenVerifierSettings,
  VerifyToken,
} from './settings.js';
export type { AuthRefusal, ResourceServerAuth } from '../transports/http/http-auth.js';

export interface ResourceServerOptions {
  /** Where the server really is, when not at the manifest's `auth.resource` (`--resource`, `MCP_AUTH_RESOURCE`). */
  resource?: string;
  /** Your token check, for `verifier: { hook: true }` (generated `handlers/verify-token.ts`). */
  verifyToken?: VerifyToken;
  /** A verifier of your own, replacing the manifest's (tests, custom token formats). */
  verifier?: TokenVerifier;
  /** Where an unreachable authorization server is reported; never given a token. */
  log?: (line: string) => void;
  /** Where `introspection.clientSecretEnv` is read. Default: `process.env`. */
  env?: Record<string, string | undefined>;
}

export function createResourceServerAuth(
  settings: AuthSettings,
  options: ResourceServerOptions = {},
): ResourceServerAuth {
  const resolved =
    options.resource === undefined ? settings : { ...settings, resource: options.resource };
  const verifier = options.verifier ?? verifierFor(resolved, options);
  return new ResourceServer(resolved, verifier, options.log ?? (() => {}));
}

function verifierFor(settings: AuthSettings, options: ResourceServerOptions): TokenVerifier {
  const kind = settings.verifier;
  if ('jwt' in kind)
    return new JwtVerifier({ ...kind.jwt, audience: kind.jwt.audience ?? settings.resource });
  if ('introspection' in kind) {
    const { endpoint, clientId, clientSecretEnv } = kind.introspection;
    const clientSecret = (options.env ?? process.env)[clientSecretEnv];
    if (clientSecret === undefined || clientSecret === '')
      throw new Error(`set ${clientSecretEnv} to the introspection client secret of ${clientId}`);
    return new IntrospectionVerifier({
      endpoint,
      clientId,
      clientSecret,
      audience: settings.resource,
    });
  }
  const verifyToken = options.verifyToken;
  if (verifyToken === undefined)
    throw new Error(
      'the manifest asks for a verifyToken hook (verifier: { hook: true }), and none was given',
    );
  const resource = settings.resource;
  return {
    async verify(token) {
      const info = await verifyToken(token, resource);
      if (info === undefined) throw new InvalidToken('the token was refused');
      return info;
    },
  };
}
