/**
 * The handshake on a connection: `server/discover` for the stateless 2026-07-28 revision,
 * `initialize` for the stateful ones (over the legacy HTTP+SSE transport when Streamable HTTP
 * refuses it), and the same handshake again when the server forgot our session. What the answers
 * mean is negotiation.ts; the round trips are connection.ts.
 */
import type { JsonObject } from '../api.js';
import { McpError } from '../protocol/errors.js';
import { notificationMessage } from '../protocol/jsonrpc.js';
import type { Connection } from './connection.js';
import { ConnectionClosedError, RequestTimeoutError } from './errors.js';
import { isSignInFailure } from './http-auth.js';
import {
  CLIENT_PROTOCOL_VERSIONS,
  identity,
  STATELESS_REVISION,
  UNSUPPORTED_PROTOCOL_VERSION,
  withStatelessMeta,
} from './negotiation.js';
import { CONNECT_TIMEOUT_MS, type SessionOptions } from './session-options.js';
import { INITIALIZE, INITIALIZED, SERVER_DISCOVER } from '../protocol/methods.js';

type ClientInfo = SessionOptions['clientInfo'];

/** The longest wait for `server/discover`: a server that does not answer it gets `initialize`. */
const DISCOVER_TIMEOUT_MS = 10_000;

/**
 * One handshake request, waiting at most `timeoutMs` for its answer. The time a sign-in takes (a
 * person in a browser, started by a 401 to this very request) is not counted: when the wait ends
 * during one, it starts again once the sign-in has ended, and the same request goes on.
 */
function handshakeExchange(
  connection: Connection,
  method: string,
  params: JsonObject,
  timeoutMs: number,
): Promise<JsonObject> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expire = (): void => {
    const signIn = connection.transport.signingIn?.();
    if (signIn === undefined) controller.abort(new RequestTimeoutError(method, timeoutMs));
    else void signIn.catch(() => undefined).then(arm);
  };
  const arm = (): void => {
    if (!controller.signal.aborted) timer = setTimeout(expire, timeoutMs);
  };
  arm();
  return connection.exchange(method, params, { signal: controller.signal }).finally(() => {
    clearTimeout(timer);
    // Settled: a sign-in that ends later arms nothing.
    controller.abort();
  });
}

/** `server/discover` at 2026-07-28; false when the server does not speak it. */
export async function discover(
  connection: Connection,
  capabilities: JsonObject,
  clientInfo: ClientInfo,
  timeoutMs: number = CONNECT_TIMEOUT_MS,
): Promise<boolean> {
  connection.transport.setProtocolVersion(STATELESS_REVISION);
  let result: JsonObject | undefined;
  // A server may refuse the first request with -32022 naming the versions it speaks: that is
  // negotiation, and the same request is sent again once.
  for (let attempt = 0; result === undefined; attempt++) {
    try {
      result = await handshakeExchange(
        connection,
        SERVER_DISCOVER,
        withStatelessMeta({}, capabilities, clientInfo),
        Math.min(DISCOVER_TIMEOUT_MS, timeoutMs),
      );
    } catch (error) {
      if (connection.closedError || isSignInFailure(error) || unreachable(error)) throw error;
      const supported =
        error instanceof McpError && error.code === UNSUPPORTED_PROTOCOL_VERSION
          ? (error.data as { supported?: unknown } | undefined)?.supported
          : undefined;
      if (attempt > 0 || !Array.isArray(supported) || !supported.includes(STATELESS_REVISION))
        return false;
    }
  }
  const supported = result['supportedVersions'];
  if (!Array.isArray(supported) || !supported.includes(STATELESS_REVISION)) return false;
  connection.identity = identity(STATELESS_REVISION, result);
  return true;
}

/** `initialize` offering `versions[0]`, accepting any of `versions`, then `notifications/initialized`. */
export async function initialize(
  connection: Connection,
  versions: readonly string[],
  capabilities: JsonObject,
  clientInfo: ClientInfo,
  timeoutMs: number = CONNECT_TIMEOUT_MS,
): Promise<void> {
  const params: JsonObject = {
    protocolVersion: versions[0],
    capabilities,
    clientInfo: clientInfo ?? { name: 'mcp-gen-client', version: '0.1.0' },
  };
  // No `MCP-Protocol-Version` until initialize has agreed on one (the stateful revisions send it
  // on the requests after it): a refused server/discover left 2026-07-28 there, which a
  // 2025-11-25 server rightly refuses.
  connection.transport.setProtocolVersion(undefined);
  let result: JsonObject;
  try {
    result = await handshakeExchange(connection, INITIALIZE, params, timeoutMs);
  } catch (error) {
    const fallback =
      (error as { status?: unknown }).status !== undefined
        ? connection.transport.fallback?.()
        : undefined;
    if (!fallback) throw error;
    // Legacy HTTP+SSE: the same handshake over the old transport.
    connection.transport = fallback;
    await connection.start();
    result = await handshakeExchange(connection, INITIALIZE, params, timeoutMs);
  }
  const version = result['protocolVersion'];
  if (typeof version !== 'string' || !versions.includes(version)) {
    throw new Error(
      `The server chose protocol version ${JSON.stringify(version)}, which this client does not speak (${versions.join(', ')})`,
    );
  }
  connection.identity = identity(version, result);
  connection.transport.setProtocolVersion(version);
  await connection.transport.send(notificationMessage(INITIALIZED, '{}'), {
    method: INITIALIZED,
  });
  await connection.transport.initialized?.();
}

/** The server forgot our session: forget its id and initialize again on the same revision. */
export function reinitialize(
  connection: Connection,
  capabilities: JsonObject,
  clientInfo: ClientInfo,
  timeoutMs: number = CONNECT_TIMEOUT_MS,
): Promise<void> {
  connection.transport.resetSession?.();
  const current = connection.identity?.protocolVersion;
  return initialize(
    connection,
    current === undefined ? CLIENT_PROTOCOL_VERSIONS.slice(1) : [current],
    capabilities,
    clientInfo,
    timeoutMs,
  );
}

/**
 * The server could not be reached or broke the exchange off (a network error, a connection closed
 * before the answer): that says nothing about the revisions it speaks, so it is the caller's error,
 * not a reason to fall back to `initialize`.
 */
function unreachable(error: unknown): boolean {
  return (
    error instanceof ConnectionClosedError ||
    (error instanceof Error && typeof (error as { code?: unknown }).code === 'string')
  );
}
