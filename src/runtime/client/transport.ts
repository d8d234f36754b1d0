/**
 * What the client session needs from a transport. Messages go out as JSON text (built by the shared
 * JSON-RPC helpers) and come in already parsed; a transport never interprets them beyond what its
 * wire requires (HTTP header mirrors, resuming a stream on the id it was waiting for).
 */
import { METHOD_TABLE } from '../protocol/methods.js';

/** What an HTTP transport mirrors into headers; stdio ignores it. */
export interface OutgoingInfo {
  /** `Mcp-Method`. */
  method: string;
  /** `Mcp-Name` (`params.name` or `params.uri`) for tools/call, prompts/get, resources/read. */
  name?: string;
  /** The request's id when the message is a request, so a broken SSE stream can be resumed for it. */
  id?: string | number;
  /** Extra headers, e.g. `Mcp-Param-Region`. */
  headers?: Readonly<Record<string, string>>;
  /**
   * The request has a signal or a timeout, so `cancel` may be called for it; for any other
   * request it never is (an HTTP transport then keeps nothing per request to stop it).
   */
  cancellable?: boolean;
}

export interface ClientTransport {
  /**
   * Starts delivering incoming messages, each with the JSON text it was parsed from (for tools that
   * inspect what JSON.parse hides, like duplicate keys); `closed` is called once when the peer goes away;
   * `lost` when one request's answer can no longer come (HTTP: its response stream broke), so the
   * call rejects at once instead of waiting for a timeout it may not have.
   */
  start(
    receive: (message: unknown, text: string) => void,
    closed: (error?: Error) => void,
    lost?: (id: string | number, error: Error) => void,
  ): Promise<void>;
  /** Sends one message. Rejects with SessionExpiredError / HttpStatusError on HTTP failures. */
  send(text: string, info: OutgoingInfo): Promise<void>;
  /**
   * The app gave up on request `id`: tells the server the way this transport does at the
   * negotiated revision (cancellation.ts), and stops waiting for the request's answer.
   */
  cancel(id: string | number, reason: string): Promise<void>;
  /**
   * Called once the protocol revision is known (HTTP sends it in `MCP-Protocol-Version`), and with
   * undefined before `initialize`, which goes out with no revision header.
   */
  setProtocolVersion(version: string | undefined): void;
  /** Called after a successful `initialize` (HTTP opens its standalone GET stream). */
  initialized?(): Promise<void>;
  /** Forgets the session (HTTP 404): the next `initialize` starts a new one. */
  resetSession?(): void;
  /** The transport to use instead when `initialize` is refused with 400/404/405 (legacy HTTP+SSE). */
  fallback?(): ClientTransport | undefined;
  /** A sign-in in progress (HTTP with OAuth): requests wait for it, so a timeout meanwhile is not the server's. */
  signingIn?(): Promise<unknown> | undefined;
  close(): Promise<void>;
}

/** The params field each request's `Mcp-Name` comes from (the method table's `named`); the tasks extension routes its methods by task id. */
const NAME_FIELDS: Readonly<Record<string, string>> = Object.fromEntries(
  METHOD_TABLE.flatMap((m) => (m.named === undefined ? [] : [[m.name, m.named]])),
);

/** The `Mcp-Name` of a request, when its method has one and its params carry it as a string. */
export function mcpNameOf(
  method: string,
  params: Readonly<Record<string, unknown>>,
): string | undefined {
  const field = NAME_FIELDS[method];
  const value = field === undefined ? undefined : params[field];
  return typeof value === 'string' ? value : undefined;
}
