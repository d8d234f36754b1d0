/**
 * `mcp-gen dev-issuer`: starts the local authorization server of dev-issuer.ts and prints what a
 * developer needs to call a protected generated server: the issuer to pass as `--auth`, the
 * client's credentials, and a ready access token for `--resource` with `--scope`. Serves until
 * SIGINT/SIGTERM.
 */
import { inputProblem } from '../load/diagnostics.js';
import { startDevIssuer } from './dev-issuer.js';
import { EXIT_OK, type Console } from './output.js';

export interface DevIssuerCommandOptions {
  port?: string;
  host?: string;
  resource?: string;
  scope?: string;
  subject?: string;
  expiresIn?: string;
  /** One ready line `{ command, issuer, clientId, clientSecret, resource, scope, token }` on stdout. */
  json?: boolean;
}

export async function runDevIssuer(options: DevIssuerCommandOptions, io: Console): Promise<number> {
  const port = Number(options.port ?? '9400');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw inputProblem('--port', `must be a number from 0 to 65535 (0: any free port), not ${options.port}`);
  const expiresIn = Number(options.expiresIn ?? '3600');
  if (!Number.isInteger(expiresIn) || expiresIn < 1) throw inputProblem('--expires-in', `must be a whole number of seconds above 0, not ${options.expiresIn}`);
  const resource = options.resource ?? 'http://127.0.0.1:3000/mcp';
  if (!URL.canParse(resource) || resource.includes('#')) throw inputProblem('--resource', `must be an absolute URL without a fragment (the MCP endpoint), not ${resource}`);
  const scope = (options.scope ?? '').split(/\s+/).filter((s) => s !== '').join(' ');
  const subject = options.subject ?? 'dev-user';

  const issuer = await startDevIssuer({ port, host: options.host ?? '127.0.0.1', resource, expiresIn });
  const token = await issuer.issue({ subject, scope, audience: resource });
  if (options.json) {
    io.out(JSON.stringify({ command: 'dev-issuer', issuer: issuer.issuer, clientId: issuer.clientId, clientSecret: issuer.clientSecret, resource, scope, subject, token }));
  } else {
    io.err(`dev-issuer: a local authorization server for development only (a new key and secret at every start)`);
    io.err(`issuer:  ${issuer.issuer}   (start the server with --auth ${issuer.issuer})`);
    io.err(`client:  ${issuer.clientId} / ${issuer.clientSecret}   (client_credentials at ${issuer.issuer}/token)`);
    io.err(`access token for ${resource}, subject ${subject}, scope "${scope}", valid ${expiresIn} s:`);
    // The token alone on stdout, so `TOKEN=$(…)`-style scripts can take it.
    io.out(token);
    io.err('Ctrl-C stops it');
  }
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await issuer.close();
  return EXIT_OK;
}
