/** The SSE wire format both the streams (http-sse.ts) and the relay (http-relay.ts) write. */

/** The reconnection delay suggested when an idle standalone stream is closed, or a resumed stream ends here. */
export const IDLE_STREAM_RETRY_MS = 1000;

/** An SSE event with an id; without a message it is a priming event (empty data). */
export function sseEvent(eventId: string, message: string | undefined): string {
  return message === undefined
    ? 'id: ' + eventId + '\ndata: \n\n'
    : 'id: ' + eventId + '\nevent: message\ndata: ' + message + '\n\n';
}
