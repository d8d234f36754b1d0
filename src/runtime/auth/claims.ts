/** From a token's claims (JWT or introspection answer) to the `AuthInfo` handlers see. */
import type { AuthInfo, JsonObject } from '../api.js';

export function authInfoOf(claims: JsonObject): AuthInfo | undefined {
  const clientId =
    typeof claims['client_id'] === 'string'
      ? claims['client_id']
      : typeof claims['azp'] === 'string'
        ? claims['azp']
        : undefined;
  // A client_credentials token may have no `sub`: the client acts for itself.
  const subject = typeof claims['sub'] === 'string' ? claims['sub'] : clientId;
  if (subject === undefined) return undefined;
  return {
    subject,
    clientId,
    scopes: scopesOf(claims),
    claims,
    expiresAt: typeof claims['exp'] === 'number' ? claims['exp'] : undefined,
  };
}

/** `scope` (space-separated, RFC 9068 and RFC 7662) or `scp` (a list, as some servers send). */
function scopesOf(claims: JsonObject): string[] {
  const scope = claims['scope'];
  if (typeof scope === 'string') return scope.split(' ').filter((s) => s !== '');
  const scp = claims['scp'];
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string');
  return [];
}
