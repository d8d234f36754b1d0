// The authorization server of the `ours+auth` benchmark rows, reduced to what a resource server
// reads from one: a JWKS on loopback, and one RS256 JWT access token for the bench resource
// (valid for a day, so a whole run reuses it).
import { createServer } from 'node:http';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';

export async function startIssuer() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const kid = 'bench-key';
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }] });
  const server = createServer((req, res) => {
    if (req.url === '/jwks') res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
    else res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const resource = 'http://127.0.0.1:3000/mcp';
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ scope: 'bench', client_id: 'bench' })
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'at+jwt' })
    .setIssuer(issuer)
    .setAudience(resource)
    .setSubject('bench')
    .setIssuedAt(now)
    .setExpirationTime(now + 24 * 3600)
    .sign(privateKey);
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    resource,
    token,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
