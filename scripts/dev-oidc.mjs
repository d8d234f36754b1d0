#!/usr/bin/env node
/**
 * A local authorization server for trying a protected MCP server (docs/authorization.md):
 * oidc-provider (a devDependency) on 127.0.0.1, issuing RS256 JWT access tokens whose audience is
 * the resource the client names (RFC 8707). One confidential client, `dev-service`, may use
 * client_credentials; the script prints a ready token for `--resource` with `--scope`.
 * Development only: in-memory state, a key made at start, no users.
 *
 *   node scripts/dev-oidc.mjs [--port 9400] [--resource http://127.0.0.1:3000/mcp] [--scope weather:read]
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '9400' },
    resource: { type: 'string', default: 'http://127.0.0.1:3000/mcp' },
    scope: { type: 'string', default: 'weather:read' },
    scopes: { type: 'string', default: 'weather:read weather:reports' },
  },
});

const issuer = `http://127.0.0.1:${values.port}`;
const client = { client_id: 'dev-service', client_secret: randomBytes(24).toString('base64url') };
const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const key = { ...(await exportJWK(privateKey)), kid: `dev-${randomBytes(4).toString('hex')}`, alg: 'RS256', use: 'sig' };

const provider = new Provider(issuer, {
  clients: [{ ...client, grant_types: ['client_credentials'], redirect_uris: [], response_types: [] }],
  jwks: { keys: [key] },
  scopes: values.scopes.split(' '),
  ttl: { ClientCredentials: 3600, AccessToken: 3600 },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: (_ctx, _client, oneOf) => oneOf,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, resource) => ({
        scope: values.scopes,
        audience: resource,
        accessTokenTTL: 3600,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
});

await new Promise((resolve) => provider.listen(Number(values.port), '127.0.0.1', resolve));

const response = await fetch(`${issuer}/token`, {
  method: 'POST',
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
  },
  body: new URLSearchParams({ grant_type: 'client_credentials', resource: values.resource, scope: values.scope }).toString(),
});
const { access_token: token } = await response.json();
console.log(`issuer:        ${issuer}`);
console.log(`client:        ${client.client_id} / ${client.client_secret} (client_credentials)`);
console.log(`access token for ${values.resource} (scope ${values.scope}), valid 1 hour:`);
console.log(token);
