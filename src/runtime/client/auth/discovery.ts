/**
 * Where to sign in: the MCP server's protected resource metadata (RFC 9728), then its
 * authorization server's metadata (RFC 8414 / OpenID Connect Discovery), each at the URLs the spec
 * lists, in its order. oauth4webapi validates the authorization server document (its `issuer` must
 * be the one the URL was built from); the resource document's `resource` is checked here, since it
 * may name the endpoint or a prefix of it.
 */
import * as oauth from 'oauth4webapi';
import { AuthorizationError } from './errors.js';
import { httpOptions } from './insecure.js';

export interface ResourceMetadata {
  resource: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
  [key: string]: unknown;
}

/** The protected resource metadata URLs to try: the challenge's `resource_metadata`, then path-suffixed, then root. */
export function resourceMetadataUrls(serverUrl: URL, fromChallenge: string | undefined): URL[] {
  const urls: URL[] = [];
  if (fromChallenge !== undefined) urls.push(new URL(fromChallenge, serverUrl));
  const path = serverUrl.pathname.replace(/\/$/, '');
  if (path !== '')
    urls.push(new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl.origin));
  urls.push(new URL('/.well-known/oauth-protected-resource', serverUrl.origin));
  return urls;
}

/** The authorization server metadata URLs for an issuer, in the spec's order (path insertion first). */
export function authorizationServerMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, '');
  if (path === '') {
    return [
      new URL('/.well-known/oauth-authorization-server', issuer.origin),
      new URL('/.well-known/openid-configuration', issuer.origin),
    ];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin),
    new URL(`/.well-known/openid-configuration${path}`, issuer.origin),
    new URL(`${path}/.well-known/openid-configuration`, issuer.origin),
  ];
}

/**
 * Whether resource metadata naming `resource` covers the endpoint: same origin, and its path is the
 * endpoint's or a parent of it (on a `/` boundary).
 */
export function resourceCovers(resource: string, serverUrl: URL): boolean {
  let named: URL;
  try {
    named = new URL(resource);
  } catch {
    return false;
  }
  if (named.origin !== serverUrl.origin) return false;
  const prefix = named.pathname.replace(/\/$/, '');
  const path = serverUrl.pathname;
  return path === prefix || path.startsWith(`${prefix}/`) || prefix === '';
}

/**
 * The first resource metadata document found. A document whose `resource` does not cover the
 * endpoint is refused outright (a server pointing at another's metadata). `undefined` when none is
 * published (a 2025-03-26 server: its origin is the authorization server).
 */
export async function discoverResource(
  serverUrl: URL,
  fromChallenge: string | undefined,
): Promise<ResourceMetadata | undefined> {
  for (const url of resourceMetadataUrls(serverUrl, fromChallenge)) {
    const response = await get(url);
    if (response === undefined || response.status < 200 || response.status >= 300) continue;
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      continue;
    }
    if (
      typeof body !== 'object' ||
      body === null ||
      typeof (body as ResourceMetadata).resource !== 'string'
    ) {
      throw new AuthorizationError(`protected resource metadata at ${url.href} has no "resource"`);
    }
    const metadata = body as ResourceMetadata;
    if (!resourceCovers(metadata.resource, serverUrl)) {
      throw new AuthorizationError(
        `protected resource metadata at ${url.href} names resource ${metadata.resource}, not ${serverUrl.href}`,
      );
    }
    return metadata;
  }
  return undefined;
}

/**
 * The authorization server's metadata, from the first well-known URL that answers. A document whose
 * `issuer` is not the issuer asked for is refused (oauth4webapi's check), not skipped. `undefined`
 * when no URL answers (a 2025-03-26 server without metadata: the default endpoints apply).
 */
export async function discoverAuthorizationServer(
  issuer: URL,
  legacy = false,
): Promise<oauth.AuthorizationServer | undefined> {
  for (const url of authorizationServerMetadataUrls(issuer)) {
    const response = await get(url);
    if (response === undefined || response.status !== 200) continue;
    try {
      // A 2025-03-26 server (no resource metadata) names no issuer to ask for: its origin's document
      // is taken with the issuer it states, provided that issuer is on the same origin.
      const expected = legacy ? await statedIssuer(response.clone(), issuer) : issuer;
      return await oauth.processDiscoveryResponse(expected, response);
    } catch (error) {
      throw new AuthorizationError(
        `authorization server metadata at ${url.href} was refused: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  return undefined;
}

async function statedIssuer(response: Response, origin: URL): Promise<URL> {
  const body = (await response.json().catch(() => ({}))) as { issuer?: unknown };
  if (
    typeof body.issuer !== 'string' ||
    !URL.canParse(body.issuer) ||
    new URL(body.issuer).origin !== origin.origin
  )
    return origin;
  return new URL(body.issuer);
}

/** The endpoints a 2025-03-26 server without metadata has: /authorize, /token and /register at its origin. */
export function defaultAuthorizationServer(origin: URL): oauth.AuthorizationServer {
  return {
    issuer: origin.origin,
    authorization_endpoint: new URL('/authorize', origin).href,
    token_endpoint: new URL('/token', origin).href,
    registration_endpoint: new URL('/register', origin).href,
    code_challenge_methods_supported: ['S256'],
  };
}

async function get(url: URL): Promise<Response | undefined> {
  httpOptions(url); // refuses plain http beyond loopback
  try {
    return await fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'follow',
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    return undefined;
  }
}
