/// <reference types="node" />
/** From a token's claims (JWT or introspection answer) to the `AuthInfo` handlers see. */
import { createHash } from 'node:crypto';
import type { AuthInfo, JsonObject } from '../api.js';

/** `token` is the access token itself: a token without `sub` owns only what it opens itself. */
export function authInfoOf(claims: JsonObject, token: string): AuthInfo | undefined {
  const clientId =
    typeof claims['client_id'] === 'string'
      ? claims['client_id']
      : typeof claims['azp'] === 'string'
        ? claims['azp']
        : undefined;
  const sub = typeof claims['sub'] === 'string' ? claims['sub'] : undefined;
  // A client_credentials token may have no `sub`: handlers see the client acting for itself.
  const subject = sub ?? clientId;
  if (subject === undefined) return undefined;
  return {
    subject,
    clientId,
    scopes: scopesOf(claims),
    claims,
    expiresAt: typeof claims['exp'] === 'number' ? claims['exp'] : undefined,
    owner: ownerOf(claims, sub, token),
  };
}

/**
 * What sessions and tasks opened with the token belong to: its issuer and `sub`, never the client
 * id (a client may be registered under any name, a user's too). Without `sub`, the token alone
 * (its SHA-256, never the token): a refreshed token is a stranger to what the old one opened.
 */
function ownerOf(claims: JsonObject, sub: string | undefined, token: string): string {
  if (sub === undefined) return `token:${createHash('sha256').update(token).digest('base64url')}`;
  const iss = typeof claims['iss'] === 'string' ? claims['iss'] : '';
  return `sub:${JSON.stringify([iss, sub])}`;
}

/** `scope` (space-separated, RFC 9068 and RFC 7662) or `scp` (a list, as some servers send). */
function scopesOf(claims: JsonObject): string[] {
  const scope = claims['scope'];
  if (typeof scope === 'string') return scope.split(' ').filter((s) => s !== '');
  const scp = claims['scp'];
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string');
  return [];
}
