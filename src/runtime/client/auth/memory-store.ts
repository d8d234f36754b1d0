/** The default `TokenStore`: this process's memory, tokens by issuer and resource, clients by issuer. */
import type { StoredClient, StoredTokens, TokenStore } from '../http-auth.js';

export class MemoryTokenStore implements TokenStore {
  private readonly tokens = new Map<string, StoredTokens>();
  private readonly clients = new Map<string, StoredClient>();

  getTokens(issuer: string, resource: string): StoredTokens | undefined {
    return this.tokens.get(JSON.stringify([issuer, resource]));
  }

  setTokens(issuer: string, resource: string, tokens: StoredTokens | undefined): void {
    const key = JSON.stringify([issuer, resource]);
    if (tokens === undefined) this.tokens.delete(key);
    else this.tokens.set(key, tokens);
  }

  getClient(issuer: string): StoredClient | undefined {
    return this.clients.get(issuer);
  }

  setClient(issuer: string, client: StoredClient | undefined): void {
    if (client === undefined) this.clients.delete(issuer);
    else this.clients.set(issuer, client);
  }
}
