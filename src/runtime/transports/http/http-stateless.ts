/** The 2026-07-28 path of Streamable HTTP: no session, no store, no promise of its own. */
import type { HttpRequestIn, HttpResponseOut } from './http-exchange.js';
import type { AuthInfo } from '../../api.js';
import { HttpOutbound } from './http-outbound.js';
import { send } from './http-reply.js';
import { statelessNonRequest } from './http-rules.js';
import type { SseStreams } from './http-sse.js';
import {
  INVALID_REQUEST,
  NULL_ID,
  errorMessage,
  idJson,
  isObject,
  isRequestId,
} from '../../protocol/jsonrpc.js';
import type { ServerCore } from '../../server/server.js';
import { Session } from '../../server/session.js';
import { checkStateless } from '../../server/stateless.js';

/** A 2026-07-28 request: checked, then served by a session of its own that ends with it. */
export function receiveStateless(
  core: ServerCore,
  streams: SseStreams,
  req: HttpRequestIn,
  res: HttpResponseOut,
  message: unknown,
  auth?: AuthInfo,
): void {
  if (!isObject(message)) {
    send(
      res,
      400,
      errorMessage(
        NULL_ID,
        INVALID_REQUEST,
        'Invalid Request: a JSON-RPC message must be an object (batches are not part of 2026-07-28)',
      ),
    );
    return;
  }
  const id = message['id'];
  if (typeof message['method'] !== 'string' || id === undefined) {
    // A notification is accepted (and means nothing without a session); anything else is refused.
    const refusal = statelessNonRequest(message);
    if (refusal === undefined) res.writeHead(202).end();
    else send(res, 400, refusal);
    return;
  }
  const checked = checkStateless(core, message, req.headers);
  if ('status' in checked) {
    send(res, checked.status, checked.text);
    return;
  }
  const session = Session.stateless(core, checked);
  const out = new HttpOutbound(res, streams, undefined, session);
  out.auth = auth;
  if (core.tracing !== undefined) out.traceHeaders = req.headers;
  out.statelessResult(isRequestId(id) ? idJson(id) : NULL_ID, message['method'] as string);
  out.received(session.receive(message, out));
}
