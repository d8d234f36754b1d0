/**
 * The SSE streams of a Streamable HTTP transport: each read to its end, then resumed (GET with
 * `Last-Event-ID` after the server's `retry`) while it still owes something, and all closed with
 * the transport. Apart from http.ts, which sends and answers, so each holds one job.
 */
import { ConnectionClosedError, MessageTooLargeError } from './errors.js';
import {
  delay,
  isAnswerTo,
  isEventStream,
  parseJson,
  readSse,
  type WireResponse,
} from './http-wire.js';

/** Resumptions of one stream without a new event before it counts as gone. */
const MAX_IDLE_RESUMES = 5;

export class ResumableStreams {
  /** Where each message read goes (the session's receiver, given when the transport starts). */
  receive: (message: unknown, text: string) => void = () => {};
  private retryMs: number;
  private isClosed = false;
  private readonly open = new Set<WireResponse>();
  /** The GET that resumes a stream after its last event. */
  private readonly resume: (lastEventId: string, signal?: AbortSignal) => Promise<WireResponse>;
  /** `maxMessageBytes`: an event over it ends its stream for good (the transport reads bodies with it too). */
  readonly maxBytes: number;

  constructor(
    retryMs: number,
    maxBytes: number,
    resume: (lastEventId: string, signal?: AbortSignal) => Promise<WireResponse>,
  ) {
    this.retryMs = retryMs;
    this.maxBytes = maxBytes;
    this.resume = resume;
  }

  /**
   * Reads one SSE stream to its end, then resumes it while it still owes something: the answer to
   * `requestId`, or, for the standalone stream, as long as the server keeps it resumable. Returns
   * the error to reject `requestId` with when its stream is gone without the answer: it broke (the
   * connection closed before the answer: a server that died does not come back), it ended and could
   * not be resumed, or resuming brought nothing several times. Undefined otherwise (answered,
   * cancelled, the transport closed, or no request waits on it).
   */
  async read(
    first: WireResponse,
    requestId: string | number | undefined,
    signal?: AbortSignal,
  ): Promise<Error | undefined> {
    let response: WireResponse | undefined = first;
    let lastEventId: string | undefined;
    let answered = false;
    let idleResumes = 0;
    const gone = (why: string): Error | undefined =>
      requestId === undefined || this.isClosed || signal?.aborted
        ? undefined
        : new ConnectionClosedError(`The response stream closed before the answer: ${why}`);
    while (response && !this.isClosed) {
      let sawEvent = false;
      const reading = readSse(
        response,
        (event) => {
          sawEvent = true;
          if (event.id !== undefined) lastEventId = event.id;
          if (event.event !== 'message' || event.data === '') return;
          const message = parseJson(event.data);
          if (message === undefined) return;
          if (requestId !== undefined && isAnswerTo(message, requestId)) answered = true;
          this.receive(message, event.data);
        },
        (retry) => {
          this.retryMs = retry;
        },
        this.open,
        this.maxBytes,
      );
      // An event over the limit would come again on resuming: the stream is given up, and the
      // request it owes an answer fails with the reason.
      const ended = await reading.catch((error: unknown) => {
        if (error instanceof MessageTooLargeError) return error;
        throw error;
      });
      if (ended instanceof MessageTooLargeError)
        return requestId === undefined || this.isClosed || signal?.aborted ? undefined : ended;
      if (answered) return undefined;
      if (!ended && requestId !== undefined) return gone('the connection broke');
      idleResumes = sawEvent ? 0 : idleResumes + 1;
      if (lastEventId === undefined) return gone('the server ended it and it cannot be resumed');
      if (this.isClosed || signal?.aborted) return undefined;
      if (idleResumes > MAX_IDLE_RESUMES) return gone('resuming it brought nothing new');
      await delay(this.retryMs);
      if (this.isClosed || signal?.aborted) return undefined;
      response = await this.resume(lastEventId, signal).catch(() => undefined);
      if (response === undefined) return gone('resuming it failed');
      if (response.status !== 200 || !isEventStream(response)) {
        await response.drain();
        return gone(`resuming it was answered with HTTP ${response.status}`);
      }
    }
    return undefined;
  }

  /** Closes every stream still open; none is resumed after. */
  close(): void {
    this.isClosed = true;
    for (const response of this.open) response.close();
    this.open.clear();
  }
}
