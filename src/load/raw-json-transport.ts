/**
 * A client transport that shows every incoming message's JSON text to `inspect` before the session
 * sees the parsed message: introspection looks for what JSON.parse hides (duplicate keys). Everything
 * else is the wrapped transport's, including the legacy HTTP+SSE fallback, which is wrapped too.
 */
import type { ClientTransport, OutgoingInfo } from '../runtime/client/transport.js';

export function inspectingTransport(inner: ClientTransport, inspect: (message: unknown, text: string) => void): ClientTransport {
  const wrapped: ClientTransport = {
    // `lost` too: without it a request whose answer stream broke would wait forever.
    start: (receive, closed, lost) =>
      inner.start(
        (message, text) => {
          inspect(message, text);
          receive(message, text);
        },
        closed,
        lost,
      ),
    send: (text: string, info: OutgoingInfo) => inner.send(text, info),
    setProtocolVersion: (version: string) => inner.setProtocolVersion(version),
    cancel: (id, reason) => inner.cancel(id, reason),
    close: () => inner.close(),
  };
  if (inner.initialized) wrapped.initialized = () => (inner.initialized as () => Promise<void>).call(inner);
  if (inner.resetSession) wrapped.resetSession = () => (inner.resetSession as () => void).call(inner);
  if (inner.fallback) {
    wrapped.fallback = () => {
      const next = (inner.fallback as () => ClientTransport | undefined).call(inner);
      return next === undefined ? undefined : inspectingTransport(next, inspect);
    };
  }
  return wrapped;
}
