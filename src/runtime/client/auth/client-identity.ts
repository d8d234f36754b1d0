/// <reference types="node" />
/**
 * Who the client is at an authorization server, in the spec's order of preference: credentials
 * the app registered beforehand, a client ID metadata document (when the server advertises
 * `client_id_metadata_document_supported`), one registered earlier with this issuer (the store),
 * then dynamic registration (RFC 7591, with `application_type`). With none of these there is no
 * way on, and the error says what to give.
 */
import { Buffer } from 'node:buffer';
import { createPrivateKey, webcrypto } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import type { OAuthOptions, StoredClient, TokenStore } from '../http-auth.js';
import { AuthorizationError } from './errors.js';
import { httpOptions, isLoopback } from './insecure.js';

/** The key type oauth4webapi signs client assertions with (a WebCrypto CryptoKey). */
type SigningKey = Extract<Parameters<typeof oauth.PrivateKeyJwt>[0], { type: string }>;

export interface ClientIdentity {
  client: oauth.Client;
  auth: oauth.ClientAuth;
  /** The `token_endpoint_auth_method` in use (for messages and tests). */
  method: string;
}

/** The identity to use with `as`, registering one when that is the way. */
export async function clientIdentity(
  as: oauth.AuthorizationServer,
  options: OAuthOptions,
  store: TokenStore,
): Promise<ClientIdentity> {
  if (options.clientId !== undefined) return preRegistered(as, options);
  if (
    !options.clientCredentials &&
    options.assertion === undefined &&
    options.clientMetadataUrl !== undefined &&
    as['client_id_metadata_document_supported'] === true
  ) {
    return identity({ clientId: options.clientMetadataUrl, tokenEndpointAuthMethod: 'none' });
  }
  const stored = await store.getClient(as.issuer);
  if (stored !== undefined) return identity(stored);
  if (as.registration_endpoint !== undefined) {
    const registered = await register(as, options);
    await store.setClient(as.issuer, registered);
    return identity(registered);
  }
  throw new AuthorizationError(
    `no client identity for ${as.issuer}: it offers no dynamic registration${as['client_id_metadata_document_supported'] === true ? '' : ' nor client ID metadata documents'}; give clientId (and clientSecret) registered there`,
  );
}

/** Credentials from the app: private_key_jwt with a key; with a secret, the method the server supports. */
async function preRegistered(
  as: oauth.AuthorizationServer,
  options: OAuthOptions,
): Promise<ClientIdentity> {
  const client: oauth.Client = { client_id: options.clientId as string };
  if (options.privateKeyPem !== undefined) {
    const alg = options.signingAlgorithm ?? 'ES256';
    return {
      client: { ...client, token_endpoint_auth_signing_alg: alg },
      auth: oauth.PrivateKeyJwt(await importPrivateKey(options.privateKeyPem, alg)),
      method: 'private_key_jwt',
    };
  }
  if (options.clientSecret === undefined)
    return identity({ clientId: client.client_id, tokenEndpointAuthMethod: 'none' });
  return identity({
    clientId: client.client_id,
    clientSecret: options.clientSecret,
    tokenEndpointAuthMethod: secretMethod(as),
  });
}

/** client_secret_basic unless the server lists only client_secret_post (RFC 8414's default is basic). */
function secretMethod(as: oauth.AuthorizationServer): string {
  const supported = as.token_endpoint_auth_methods_supported;
  if (supported === undefined || supported.includes('client_secret_basic'))
    return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'client_secret_basic';
}

function identity(stored: StoredClient): ClientIdentity {
  const method =
    stored.tokenEndpointAuthMethod ??
    (stored.clientSecret === undefined ? 'none' : 'client_secret_basic');
  const client: oauth.Client = { client_id: stored.clientId, token_endpoint_auth_method: method };
  const secret = stored.clientSecret ?? '';
  switch (method) {
    case 'client_secret_basic':
      return { client, auth: secretBasic(secret), method };
    case 'client_secret_post':
      return { client, auth: oauth.ClientSecretPost(secret), method };
    case 'none':
      return { client, auth: oauth.None(), method };
    default:
      throw new AuthorizationError(
        `token endpoint authentication ${method} is not supported by this client`,
      );
  }
}

/**
 * client_secret_basic with the id and secret form-encoded as URLSearchParams encodes them (RFC 6749
 * §2.3.1). oauth4webapi's own also escapes `-_.!~*'()`, which decodes to the same but is not decoded
 * by every server (a pre-registered `my-client` arrives as `my%2Dclient`).
 */
function secretBasic(secret: string): oauth.ClientAuth {
  const encode = (value: string): string => new URLSearchParams({ v: value }).toString().slice(2);
  return (_as, client, _body, headers) => {
    headers.set(
      'authorization',
      `Basic ${Buffer.from(`${encode(client.client_id)}:${encode(secret)}`).toString('base64')}`,
    );
  };
}

/** RFC 7591 registration: a public client when the server allows `none`, else one with a secret. */
async function register(
  as: oauth.AuthorizationServer,
  options: OAuthOptions,
): Promise<StoredClient> {
  const supported = as.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  const method = ['none', 'client_secret_basic', 'client_secret_post'].find((m) =>
    supported.includes(m),
  );
  const redirect = options.redirectUrl === undefined ? undefined : new URL(options.redirectUrl);
  const metadata: Partial<oauth.Client> = {
    client_name: options.clientName ?? 'mcp-gen client',
    grant_types: options.clientCredentials
      ? ['client_credentials']
      : ['authorization_code', 'refresh_token'],
    response_types: options.clientCredentials ? [] : ['code'],
    // A redirect to this machine (or a custom scheme) is a native app's; an https site is a web app.
    application_type:
      redirect === undefined || isLoopback(redirect) || !/^https?:$/.test(redirect.protocol)
        ? 'native'
        : 'web',
    ...(redirect === undefined ? {} : { redirect_uris: [redirect.href] }),
    ...(method === undefined ? {} : { token_endpoint_auth_method: method }),
  };
  let registered: Omit<oauth.Client, symbol>;
  try {
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      metadata,
      httpOptions(as.registration_endpoint),
    );
    registered = await oauth
      .processDynamicClientRegistrationResponse(response)
      .catch((error: unknown) => {
        // RFC 7591 wants client_secret_expires_at beside a secret; many servers leave it out. Their
        // answer is taken as a secret that does not expire (0), every other check still applies.
        const body = missingSecretExpiry(error);
        if (body === undefined) throw error;
        return body;
      });
  } catch (error) {
    throw new AuthorizationError(
      `dynamic client registration at ${as.registration_endpoint} failed: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const result: StoredClient = { clientId: String(registered['client_id']) };
  if (typeof registered['client_secret'] === 'string')
    result.clientSecret = registered['client_secret'];
  const registeredMethod: string | undefined =
    typeof registered['token_endpoint_auth_method'] === 'string'
      ? registered['token_endpoint_auth_method']
      : method;
  if (registeredMethod !== undefined)
    result.tokenEndpointAuthMethod =
      registeredMethod === 'none' || result.clientSecret !== undefined ? registeredMethod : 'none';
  if (redirect !== undefined) result.redirectUris = [redirect.href];
  return result;
}

function missingSecretExpiry(error: unknown): Omit<oauth.Client, symbol> | undefined {
  if (
    !(error instanceof oauth.OperationProcessingError) ||
    !error.message.includes('client_secret_expires_at')
  )
    return undefined;
  const body = (error.cause as { body?: unknown } | undefined)?.body as
    Record<string, unknown> | undefined;
  if (
    body === undefined ||
    typeof body['client_id'] !== 'string' ||
    body['client_secret_expires_at'] !== undefined
  )
    return undefined;
  return { ...body, client_id: body['client_id'], client_secret_expires_at: 0 } as Omit<
    oauth.Client,
    symbol
  >;
}

/** A PKCS#8 PEM key as the CryptoKey oauth4webapi signs with. */
async function importPrivateKey(pem: string, alg: string): Promise<SigningKey> {
  const der = createPrivateKey(pem).export({ format: 'der', type: 'pkcs8' });
  const algorithms: Record<string, Parameters<typeof webcrypto.subtle.importKey>[2]> = {
    ES256: { name: 'ECDSA', namedCurve: 'P-256' },
    ES384: { name: 'ECDSA', namedCurve: 'P-384' },
    RS256: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    PS256: { name: 'RSA-PSS', hash: 'SHA-256' },
    EdDSA: { name: 'Ed25519' },
  };
  const algorithm = algorithms[alg];
  if (algorithm === undefined)
    throw new AuthorizationError(
      `signing algorithm ${alg} is not supported (ES256, ES384, RS256, PS256, EdDSA)`,
    );
  return (await webcrypto.subtle.importKey('pkcs8', der, algorithm, false, [
    'sign',
  ])) as unknown as SigningKey;
}
