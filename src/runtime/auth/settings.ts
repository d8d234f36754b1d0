/**
 * What a generated server tells its resource server (`authSettings` in generated `server.ts`, from
 * the manifest's `auth` section and its `scopes`), and what a token verifier answers.
 */
import type { AuthInfo } from '../api.js';

export type TokenVerifierSettings =
  | {
      jwt: {
        issuer: string;
        audience?: string;
        algorithms: string[];
        jwksUri?: string;
        clockSkewSeconds?: number;
        /** Only `typ: at+jwt` (RFC 9068 4); default false. */
        requireTyp?: boolean;
      };
    }
  | { introspection: { endpoint: string; clientId: string; clientSecretEnv: string } }
  | { hook: true };

export interface AuthSettings {
  /** Canonical URI of the MCP endpoint: the metadata's `resource`, and the audience tokens must name. */
  resource: string;
  authorizationServers: string[];
  scopesSupported?: string[];
  /** Scopes every request needs. */
  scopes?: string[];
  verifier: TokenVerifierSettings;
  /** Scopes per tool name, prompt name, resource URI and resource template (only those that need some). */
  toolScopes?: Record<string, string[]>;
  promptScopes?: Record<string, string[]>;
  resourceScopes?: Record<string, string[]>;
  resourceTemplateScopes?: Record<string, string[]>;
}

/** A token a verifier refused: `reason` goes into `error_description` and must never quote the token. */
export class InvalidToken extends Error {}

/**
 * Checks one access token: resolves with who it belongs to, rejects with `InvalidToken` when it is
 * not valid for this resource, or with any other error when it cannot tell (the authorization
 * server is unreachable: 503).
 */
export interface TokenVerifier {
  verify(token: string): Promise<AuthInfo>;
  /**
   * Verifiers whose keys rotate (JWT): the key id a verified token names, and a way to hear which
   * key ids remain when a refetched key set drops one, so verdicts resting on a dropped key go.
   */
  keyIdOf?(token: string): string | undefined;
  onKeysChanged?(listener: (held: ReadonlySet<string>) => void): void;
}

/** The hook a manifest with `verifier: { hook: true }` gets from `handlers/verify-token.ts`. */
export type VerifyToken = (token: string, resource: string) => Promise<AuthInfo | undefined>;
