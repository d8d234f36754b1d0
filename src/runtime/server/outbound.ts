/**
 * The seam between the dispatcher and the transports: where answers go (`Outbound`), what
 * `Session.receive` promises (`Delivery`), and the outbound that gathers a batch's responses.
 */
import type { AuthInfo } from '../api.js';
import { INVALID_REQUEST, errorMessage } from '../protocol/jsonrpc.js';

/**
 * Where the answers to the messages handed to `Session.receive` go. stdio has one for the whole
 * connection; Streamable HTTP has one per POST.
 */
export interface Outbound {
  /** The answer to the message(s): one response, or a batch's array of responses. Called once. */
  respond(text: string): void;
  /** A notification or server→client request belonging to an in-flight request of this outbound. */
  emit(text: string): void;
  /** Every request of the message(s) ended without a response (cancelled). Called instead of `respond`. */
  abandon(): void;
  /** False when server→client messages cannot reach the client this way (HTTP without SSE). */
  readonly canEmit: boolean;
  /** Streamable HTTP polling: end the response stream now; later messages wait for the client to resume it. */
  closeStream?(retryMs: number): void;
  /** The verified caller of this POST (manifest `auth`); undefined elsewhere. */
  readonly auth?: AuthInfo | undefined;
  /** The POST's W3C trace context headers, for tracing (server/tracing.ts); undefined elsewhere. */
  readonly traceHeaders?: Readonly<Record<string, unknown>> | undefined;
}

/** What `Session.receive` promises the transport. */
export type Delivery = typeof NO_RESPONSE | typeof RESPONSE_PENDING | typeof INVALID_MESSAGE;
/** Only notifications and responses: neither `respond` nor `abandon` will be called. */
export const NO_RESPONSE = 0;
/** `respond` or `abandon` has been or will be called exactly once. */
export const RESPONSE_PENDING = 1;
/** The message was not JSON-RPC at all; its -32600 error has been passed to `respond`. */
export const INVALID_MESSAGE = 2;

/** Collects a batch's responses and answers with one array once every request has settled. */
export class BatchOutbound implements Outbound {
  readonly parent: Outbound;
  private readonly responses: string[] = [];
  private expected = 0;
  private settled = 0;
  private closed = false;

  constructor(parent: Outbound) {
    this.parent = parent;
  }

  get canEmit(): boolean {
    return this.parent.canEmit;
  }

  get auth(): AuthInfo | undefined {
    return this.parent.auth;
  }

  expect(): void {
    this.expected++;
  }

  respond(text: string): void {
    this.responses.push(text);
    this.settle();
  }

  abandon(): void {
    this.settle();
  }

  emit(text: string): void {
    this.parent.emit(text);
  }

  close(): Delivery {
    if (this.expected === 0) return NO_RESPONSE;
    this.closed = true;
    if (this.settled === this.expected) this.finish();
    return RESPONSE_PENDING;
  }

  private settle(): void {
    this.settled++;
    if (this.closed && this.settled === this.expected) this.finish();
  }

  private finish(): void {
    if (this.responses.length === 0) this.parent.abandon();
    else this.parent.respond('[' + this.responses.join(',') + ']');
  }
}

export function invalid(out: Outbound, idText: string, detail: string): Delivery {
  out.respond(errorMessage(idText, INVALID_REQUEST, `Invalid Request: ${detail}`));
  return INVALID_MESSAGE;
}
