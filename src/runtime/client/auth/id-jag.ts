/**
 * Enterprise-managed authorization (cross-app access): the user's ID token from the enterprise's
 * identity provider is exchanged there (RFC 8693 token exchange) for an identity assertion grant
 * (ID-JAG) naming the MCP server's authorization server and resource; that assertion is then the
 * JWT-bearer `assertion` the flow sends to the authorization server. Use the result as
 * `auth: { clientId, clientSecret, assertion: idJagAssertion({ … }) }`.
 */
import * as oauth from 'oauth4webapi';
import { AuthorizationError } from './errors.js';
import { httpOptions } from './insecure.js';

export interface IdJagOptions {
  /** The identity provider's token endpoint, and its issuer (default: the endpoint's origin). */
  idpTokenEndpoint: string;
  idpIssuer?: string;
  /** This app's client at the identity provider. */
  idpClientId: string;
  idpClientSecret?: string;
  /** The user's ID token from the identity provider (a function is asked for a fresh one each time). */
  idToken: string | (() => string | Promise<string>);
}

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';

export function idJagAssertion(
  options: IdJagOptions,
): (target: {
  issuer: string;
  resource: string | undefined;
  scope: string | undefined;
}) => Promise<string> {
  const idp: oauth.AuthorizationServer = {
    issuer: options.idpIssuer ?? new URL(options.idpTokenEndpoint).origin,
    token_endpoint: options.idpTokenEndpoint,
  };
  const client: oauth.Client = { client_id: options.idpClientId };
  const auth =
    options.idpClientSecret === undefined
      ? oauth.None()
      : oauth.ClientSecretPost(options.idpClientSecret);
  return async ({ issuer, resource, scope }) => {
    const parameters: Record<string, string> = {
      subject_token:
        typeof options.idToken === 'string' ? options.idToken : await options.idToken(),
      subject_token_type: ID_TOKEN,
      requested_token_type: ID_JAG,
      audience: issuer,
    };
    if (resource !== undefined) parameters['resource'] = resource;
    if (scope !== undefined) parameters['scope'] = scope;
    try {
      const response = await oauth.genericTokenEndpointRequest(
        idp,
        client,
        auth,
        TOKEN_EXCHANGE,
        parameters,
        httpOptions(idp.token_endpoint),
      );
      // The ID-JAG is no access token: its token_type is `N_A` (RFC 8693 §2.2.1).
      const result = await oauth.processGenericTokenEndpointResponse(idp, client, response, {
        recognizedTokenTypes: { n_a: () => undefined },
      });
      if (result['issued_token_type'] !== ID_JAG)
        throw new Error(
          `issued_token_type is ${String(result['issued_token_type'])}, not ${ID_JAG}`,
        );
      return result.access_token;
    } catch (error) {
      throw new AuthorizationError(
        `the token exchange at ${idp.token_endpoint} for an identity assertion failed: ${(error as Error).message}`,
        { cause: error },
      );
    }
  };
}
