/**
 * DPoP (RFC 9449): one key pair per connection; oauth4webapi's handle signs the proofs for token
 * requests and for each request to the MCP endpoint, and keeps the servers' nonces. The endpoint's
 * proof is taken from oauth4webapi's resource-request builder without letting it send anything (the
 * transport sends over node:http).
 */
import * as oauth from 'oauth4webapi';
import { httpOptions } from './insecure.js';

export class DpopBinding {
  private keyPair: Awaited<ReturnType<typeof oauth.generateKeyPair>> | undefined;
  private bound: oauth.DPoPHandle | undefined;
  readonly ready: Promise<void>;

  constructor(algorithm = 'ES256') {
    this.ready = oauth.generateKeyPair(algorithm).then((pair) => {
      this.keyPair = pair;
    });
  }

  /** The handle for token requests (one per connection, so nonces carry over). */
  handle(client: oauth.Client): oauth.DPoPHandle {
    if (this.keyPair === undefined) throw new Error('DPoP key pair not ready');
    this.bound ??= oauth.DPoP(client, this.keyPair);
    return this.bound;
  }

  /** The `DPoP` header for one request to the MCP endpoint with `accessToken`. */
  async resourceProof(
    method: string,
    url: URL,
    accessToken: string,
  ): Promise<Record<string, string>> {
    const handle = this.bound;
    if (handle === undefined) return {};
    let proof: string | null = null;
    await oauth.protectedResourceRequest(accessToken, method, url, new Headers(), undefined, {
      DPoP: handle,
      ...httpOptions(url),
      [oauth.customFetch]: (_url, init) => {
        proof = new Headers(init.headers).get('dpop');
        return Promise.resolve(new Response(null, { status: 204 }));
      },
    });
    return proof === null ? {} : { dpop: proof };
  }

  /** Keeps a nonce the MCP endpoint sent (`DPoP-Nonce`) for the next proof. */
  async rememberNonce(url: URL, nonce: string): Promise<void> {
    const handle = this.bound;
    if (handle === undefined) return;
    await oauth
      .protectedResourceRequest('-', 'HEAD', url, new Headers(), undefined, {
        DPoP: handle,
        ...httpOptions(url),
        [oauth.customFetch]: () =>
          Promise.resolve(new Response(null, { status: 204, headers: { 'dpop-nonce': nonce } })),
      })
      .catch(() => undefined);
  }
}
