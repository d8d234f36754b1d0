/**
 * OAuth for the client runtime (`connect({ url, auth: { … } })`). The only part of the client
 * runtime that imports a package (oauth4webapi); copied into a generated client only with `--auth`.
 */
export { oauthAuth } from './oauth.js';
export { loopbackRedirect, type LoopbackOptions, type LoopbackRedirect } from './loopback.js';
export { MemoryTokenStore } from './memory-store.js';
export { idJagAssertion, type IdJagOptions } from './id-jag.js';
export { AuthorizationError } from './errors.js';
export {
  authorizationServerMetadataUrls,
  resourceMetadataUrls,
  resourceCovers,
} from './discovery.js';
export { parseChallenges, bearerParams } from './challenge.js';
export type { OAuthOptions, StoredClient, StoredTokens, TokenStore } from '../http-auth.js';
