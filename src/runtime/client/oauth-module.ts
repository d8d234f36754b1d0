/**
 * Loads the OAuth flow (`auth/`, on oauth4webapi) when `connect({ url, auth: { … } })` asks for it.
 * A client generated with `--auth` has this file; one without gets oauth-module-absent.ts under this
 * name, so no import names a folder that is not there (a bundler would fail on it).
 */
import type { HttpAuth, OAuthOptions } from './http-auth.js';

export function loadOAuth(): Promise<{
  oauthAuth: (options: OAuthOptions, serverUrl: URL) => HttpAuth;
}> {
  return import('./auth/index.js');
}
