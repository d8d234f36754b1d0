/**
 * The seam between the Streamable HTTP transport and an OAuth resource server (`auth/`, loaded
 * only by servers whose manifest has `auth`). The transport knows nothing of tokens: it asks this
 * interface who is calling, whether the call needs scopes the caller lacks, and for the metadata
 * document, and sends back the refusals and the document (`serveMetadata`) it gets. Keeping it here keeps `jose` out of every other
 * runtime file, so a server without auth imports nothing but `node:*`.
 */
import type { HttpRequestIn, HttpResponseOut } from './http-exchange.js';
import type { AuthInfo } from '../../api.js';
import { NULL_ID, TRANSPORT_ERROR, errorMessage, quote } from '../../protocol/jsonrpc.js';
import { send, sendError } from './http-reply.js';

/** A refused request: its status, the `WWW-Authenticate` challenge, and a message without the token. */
export interface AuthRefusal {
  status: 400 | 401 | 403 | 503;
  /** `Bearer …`; absent for 503. */
  challenge?: string;
  message: string;
}

export interface ResourceServerAuth {
  /** The Protected Resource Metadata (RFC 9728) as JSON text when `path` is one of its well-known paths. */
  metadataAt(path: string): string | undefined;
  /**
   * Who sent the request (its bearer token checked), or why it is refused. Never throws. Answers
   * synchronously when it already knows (a reused token), so that path costs no promise.
   */
  authenticate(req: HttpRequestIn): AuthInfo | AuthRefusal | Promise<AuthInfo | AuthRefusal>;
  /** The refusal (403) when the message needs scopes the token lacks; checked before any handler runs. */
  authorize(message: unknown, req: HttpRequestIn, auth: AuthInfo): AuthRefusal | undefined;
}

export function isRefusal(value: AuthInfo | AuthRefusal): value is AuthRefusal {
  return 'status' in value;
}

/** The refusal, under the request's id when the body was read (`idText`), else under a null id. */
export function sendRefusal(
  res: HttpResponseOut,
  refusal: AuthRefusal,
  idText: string = NULL_ID,
): void {
  if (refusal.challenge !== undefined) res.setHeader('www-authenticate', refusal.challenge);
  send(res, refusal.status, errorMessage(idText, TRANSPORT_ERROR, refusal.message));
}

/** The Protected Resource Metadata: public, so any origin may read it (browser-based clients discover with it). */
export function serveMetadata(req: HttpRequestIn, res: HttpResponseOut, metadata: string): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    sendError(res, 405, TRANSPORT_ERROR, `Method Not Allowed: ${quote(req.method ?? '')}`);
    return;
  }
  res.writeHead(200, {
    'content-type': 'application/json',
    'access-control-allow-origin': '*',
    'cache-control': 'max-age=3600',
  });
  res.end(req.method === 'HEAD' ? undefined : metadata);
}
