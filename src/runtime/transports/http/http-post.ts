/**
 * A POST to the endpoint, after admission: its media types checked, its body read within the
 * limit, parsed, its scopes checked (with `auth`), then served statelessly or by its session.
 */
import type { HttpRequestIn, HttpResponseOut } from './http-exchange.js';
import type { AuthInfo } from '../../api.js';
import {
  INVALID_REQUEST,
  NULL_ID,
  parseErrorMessage,
  TRANSPORT_ERROR,
  errorMessage,
  nestsDeeperThan,
  tooDeepMessage,
} from '../../protocol/jsonrpc.js';
import { scanRequestId } from '../../protocol/json-scan.js';
import type { ServerCore } from '../../server/server.js';
import { sendRefusal, type ResourceServerAuth } from './http-auth.js';
import type { ReadBody } from './http-body.js';
import { ACCEPTS_JSON, ACCEPTS_SSE, send, sendError } from './http-reply.js';
import {
  SESSIONS_OFF,
  contentTypeProblem,
  headerText,
  servedStatelessly,
  versionHeader,
} from './http-rules.js';
import type { HttpSessions } from './http-sessions.js';
import type { SseStreams } from './http-sse.js';
import { receiveStateless } from './http-stateless.js';

export class HttpPost<Req extends HttpRequestIn> {
  private readonly core: ServerCore;
  private readonly maxBodyBytes: number;
  /** The adapter's way to read a body (node:http stream, Web stream) under the shared limit. */
  private readonly readBody: ReadBody<Req>;
  private readonly auth: ResourceServerAuth | undefined;
  private readonly streams: SseStreams;
  /** The stateful era: sessions and their POSTs; undefined where sessions are off. */
  private readonly stateful: HttpSessions | undefined;
  /** Answers a request whose serving threw or whose store failed. */
  private readonly failed: (res: HttpResponseOut, error: unknown) => void;

  constructor(
    core: ServerCore,
    maxBodyBytes: number,
    readBody: ReadBody<Req>,
    auth: ResourceServerAuth | undefined,
    streams: SseStreams,
    stateful: HttpSessions | undefined,
    failed: (res: HttpResponseOut, error: unknown) => void,
  ) {
    this.core = core;
    this.maxBodyBytes = maxBodyBytes;
    this.readBody = readBody;
    this.auth = auth;
    this.streams = streams;
    this.stateful = stateful;
    this.failed = failed;
  }

  post(req: Req, res: HttpResponseOut, auth: AuthInfo | undefined): void {
    const badType = contentTypeProblem(headerText(req.headers, 'content-type'));
    if (badType !== undefined) {
      sendError(res, 415, TRANSPORT_ERROR, `Unsupported Media Type: ${badType}`);
      return;
    }
    const accept = headerText(req.headers, 'accept') ?? '';
    if (!ACCEPTS_JSON.test(accept) || !ACCEPTS_SSE.test(accept)) {
      sendError(
        res,
        406,
        TRANSPORT_ERROR,
        'Not Acceptable: Accept must list both application/json and text/event-stream',
      );
      return;
    }
    this.readBody(
      req,
      this.maxBodyBytes,
      (body) => {
        try {
          this.receive(req, res, body, auth);
        } catch (error) {
          this.failed(res, error);
        }
      },
      (idText) => {
        res.setHeader('connection', 'close');
        send(
          res,
          413,
          errorMessage(
            idText,
            INVALID_REQUEST,
            `Payload Too Large: the limit is ${this.maxBodyBytes} bytes`,
          ),
        );
      },
    );
  }

  /** Synchronous up to the stateless path, which needs no store: only stateful requests make a promise. */
  private receive(
    req: HttpRequestIn,
    res: HttpResponseOut,
    body: string,
    auth: AuthInfo | undefined,
  ): void {
    const maxDepth = this.core.limits.maxDepth;
    if (body.length > maxDepth && nestsDeeperThan(body, maxDepth)) {
      send(res, 400, tooDeepMessage(maxDepth, scanRequestId(body, this.maxBodyBytes)));
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      send(res, 400, parseErrorMessage(scanRequestId(body, this.maxBodyBytes)));
      return;
    }
    if (auth !== undefined) {
      const refusal = this.auth!.authorize(message, req, auth);
      if (refusal !== undefined) {
        sendRefusal(res, refusal, scanRequestId(body, this.maxBodyBytes));
        return;
      }
    }
    if (servedStatelessly(message, req.headers)) {
      receiveStateless(this.core, this.streams, req, res, message, auth);
      return;
    }
    if (this.stateful === undefined) {
      const id = scanRequestId(body, this.maxBodyBytes) ?? NULL_ID;
      send(res, 400, errorMessage(id, TRANSPORT_ERROR, `Bad Request: ${SESSIONS_OFF}`));
      return;
    }
    this.stateful
      .receive(req, res, message, versionHeader(req.headers), auth)
      .catch((error: unknown) => this.failed(res, error));
  }
}
