/**
 * The sign-in settings the conformance client uses against the suite's protected servers
 * (`auth/*` scenarios). The suite's authorization server approves at once: its authorization
 * endpoint redirects straight to the redirect URI, so the "browser" here follows redirects with
 * plain HTTP until one points at the redirect URI, and hands that URL back.
 */
import { idJagAssertion } from './client/runtime/client/auth/index.js';
import type { OAuthOptions } from './client/runtime/client/index.js';

type Json = { [key: string]: unknown };

const REDIRECT_URL = 'http://localhost:3000/callback';
/** The client ID metadata document URL the suite expects (it never fetches it successfully). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

export function authFor(scenario: string, context: Json): OAuthOptions | undefined {
  if (!scenario.startsWith('auth/')) return undefined;
  const options: OAuthOptions = {
    redirectUrl: REDIRECT_URL,
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientName: 'mcp-gen-conformance-client',
    openAuthorizationUrl: followToRedirect,
  };
  if (typeof context['client_id'] === 'string') options.clientId = context['client_id'];
  if (typeof context['client_secret'] === 'string') options.clientSecret = context['client_secret'];
  if (typeof context['private_key_pem'] === 'string') options.privateKeyPem = context['private_key_pem'];
  if (typeof context['signing_algorithm'] === 'string') options.signingAlgorithm = context['signing_algorithm'];
  // The client-credentials extension: the app signs in as itself, with the credentials it was given.
  if (scenario.startsWith('auth/client-credentials')) options.clientCredentials = true;
  // Workload identity: the platform's JWT, exchanged with the JWT-bearer grant.
  if (typeof context['valid_jwt'] === 'string') options.assertion = context['valid_jwt'];
  // Enterprise-managed authorization: the identity provider's ID token, exchanged there for an ID-JAG.
  if (typeof context['idp_id_token'] === 'string' && typeof context['idp_token_endpoint'] === 'string') {
    options.assertion = idJagAssertion({
      idpTokenEndpoint: context['idp_token_endpoint'],
      idpClientId: typeof context['idp_client_id'] === 'string' ? context['idp_client_id'] : '',
      ...(typeof context['idp_issuer'] === 'string' ? { idpIssuer: context['idp_issuer'] } : {}),
      idToken: context['idp_id_token'],
    });
  }
  return options;
}

/** The "browser": GET the URL, follow redirects until one leads to the redirect URI. */
async function followToRedirect(url: URL): Promise<string> {
  let next = url;
  for (let hops = 0; hops < 10; hops++) {
    if (next.href.startsWith(REDIRECT_URL)) return next.href;
    const response = await fetch(next, { redirect: 'manual' });
    const location = response.headers.get('location');
    await response.body?.cancel();
    if (response.status < 300 || response.status >= 400 || location === null) {
      throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
    }
    next = new URL(location, next);
  }
  throw new Error('too many redirects on the way to the redirect URI');
}
