/**
 * The stdio transport: newline-delimited JSON-RPC on stdin/stdout. Only JSON-RPC goes to stdout;
 * diagnostics go to the server's logger (stderr by default).
 *
 * Writes are batched: the responses produced while one input chunk is processed go out a few at a
 * time (`FLUSH_COUNT`) and the rest at the end of that chunk; messages produced later (async
 * handlers) are gathered until the promise reactions running at the time have settled
 * (`process.nextTick`). When the output pipe is full, input is paused until it drains.
 */
import type { Readable, Writable } from 'node:stream';
import { Buffer } from 'node:buffer';
import { PARSE_ERROR_MESSAGE, idJson, isObject, isRequestId, nestsDeeperThan, tooDeepMessage, tooLargeMessage } from './jsonrpc.js';
import type { ServerCore } from './server.js';
import { Session, type Outbound } from './session.js';
import { checkStateless, isStatelessMessage, withResultFields } from './stateless.js';
import { scanRequestId } from './json-scan.js';

export interface StdioStreams {
  input: Readable;
  output: Writable;
}

const BLANK = /^\s*$/;
/** Characters gathered before a write is forced, even mid-chunk. */
const FLUSH_THRESHOLD = 16 * 1024;
/**
 * Messages gathered before a write is forced. One write per input chunk would make the client and
 * the server take turns when a client pipelines its calls (the client waits for the whole chunk's
 * answers, the server for the next chunk); a write every few answers lets the client start on them
 * while the rest are served, and still saves most of the system calls.
 */
const FLUSH_COUNT = 4;

/** Resolves when the input ends and every in-flight request has been answered. */
export function serveStdio(core: ServerCore, io?: StdioStreams): Promise<void> {
  const input = io?.input ?? process.stdin;
  const output = io?.output ?? process.stdout;
  const session = new Session(core, undefined);
  const writer = new StdioOutbound(input, output, core.log);
  session.standalone = writer;
  /** Running 2026-07-28 requests by id, so `notifications/cancelled` reaches them. */
  const stateless = new Map<string | number, Session>();

  /** A 2026-07-28 request: checked, then served by a session of its own; its results gain `resultType`. */
  const receiveStateless = (message: { [key: string]: unknown }): void => {
    const id = message['id'];
    const method = message['method'];
    if (typeof method !== 'string' || !isRequestId(id)) return;
    const checked = checkStateless(core, message, undefined);
    if ('status' in checked) {
      writer.respond(checked.text);
      return;
    }
    const one = Session.stateless(core, checked);
    const idText = idJson(id);
    stateless.set(id, one);
    one.receive(message, {
      canEmit: true,
      respond: (text) => {
        stateless.delete(id);
        writer.respond(withResultFields(text, idText, method, core.serverInfoMember));
      },
      emit: (text) => writer.emit(text),
      abandon: () => stateless.delete(id),
    });
  };
  const { maxMessageBytes, maxDepth } = core.limits;
  // A UTF-16 code unit is 1 to 3 bytes of UTF-8: only long lines need counting.
  const tooLarge = (text: string): boolean =>
    text.length > maxMessageBytes || (text.length * 3 > maxMessageBytes && Buffer.byteLength(text) > maxMessageBytes);

  const receiveLine = (line: string): void => {
    if (tooLarge(line)) {
      writer.respond(tooLargeMessage(maxMessageBytes, scanRequestId(line, maxMessageBytes)));
      return;
    }
    if (line.length > maxDepth && nestsDeeperThan(line, maxDepth)) {
      writer.respond(tooDeepMessage(maxDepth, scanRequestId(line, maxMessageBytes)));
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      if (!BLANK.test(line)) writer.respond(PARSE_ERROR_MESSAGE);
      return;
    }
    // Before the stateless branch: a 2026-07-28 client's cancellation carries the same `_meta`
    // envelope as its requests, and must reach the running request it names.
    if (isObject(message) && message['method'] === 'notifications/cancelled' && isObject(message['params'])) {
      const target = message['params']['requestId'];
      const running = isRequestId(target) ? stateless.get(target) : undefined;
      if (running !== undefined) {
        running.receive(message, writer);
        return;
      }
    }
    if (isObject(message) && !Array.isArray(message) && !session.initialized && isStatelessMessage(message, undefined)) {
      receiveStateless(message);
      return;
    }
    session.receive(message, writer);
  };

  return new Promise((resolve) => {
    let partial = '';
    let partialBytes = 0;
    // Set while the rest of an oversized line is skipped: it is never held in memory. Only the id
    // read from its beginning (at most maxMessageBytes, already held) is kept for the refusal.
    let dropping = false;
    let droppedId: string | undefined;
    const startDropping = (head: string): void => {
      dropping = true;
      droppedId = scanRequestId(head, maxMessageBytes);
      partial = '';
    };
    const refuseDropped = (): void => {
      dropping = false;
      writer.respond(tooLargeMessage(maxMessageBytes, droppedId));
      droppedId = undefined;
    };
    let ended = false;
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => {
      const newline = chunk.indexOf('\n');
      if (newline === -1) {
        if (dropping) return;
        partialBytes += Buffer.byteLength(chunk);
        if (partialBytes > maxMessageBytes) {
          startDropping(partial === '' ? chunk : partial + chunk);
        } else {
          partial += chunk;
        }
        return;
      }
      writer.hold();
      const started = session.asyncStarted;
      if (dropping) {
        refuseDropped();
      } else {
        receiveLine(partial === '' ? chunk.slice(0, newline) : partial + chunk.slice(0, newline));
      }
      partial = '';
      partialBytes = 0;
      consume(chunk, newline + 1, started);
    });

    /**
     * The lines of `chunk` from `start` on. After a line whose handler returned a promise, the rest
     * waits for one microtask turn (input paused), so that handler's answer is built and written
     * before the next handler runs. Otherwise the results of every request of a chunk (dozens when
     * a client pipelines calls) are alive at once, survive V8's young-generation collections and
     * make it grow its heap: 1.2x the RSS of a synchronous server after 10k `search` calls.
     */
    const consume = (chunk: string, start: number, started: number): void => {
      let newline = chunk.indexOf('\n', start);
      while (newline !== -1) {
        if (session.asyncStarted !== started) {
          if (!writer.inputHeld) {
            writer.inputHeld = true;
            input.pause();
          }
          const from = start;
          const now = session.asyncStarted;
          queueMicrotask(() => consume(chunk, from, now));
          return;
        }
        receiveLine(chunk.slice(start, newline));
        start = newline + 1;
        newline = chunk.indexOf('\n', start);
      }
      partial = start < chunk.length ? chunk.slice(start) : '';
      if (partial !== '') {
        partialBytes = Buffer.byteLength(partial);
        if (partialBytes > maxMessageBytes) startDropping(partial);
      }
      writer.release();
      if (writer.inputHeld) {
        writer.inputHeld = false;
        if (finishPending) finish();
        else if (!writer.awaitingDrain && !ended) input.resume();
      }
    };
    let finishPending = false;
    const finish = (): void => {
      if (ended) return;
      if (writer.inputHeld) {
        // The rest of a chunk is still being read: end after it.
        finishPending = true;
        return;
      }
      ended = true;
      writer.inputEnded = true;
      if (dropping) refuseDropped();
      else if (partial !== '') receiveLine(partial);
      // Nobody can answer a server→client request any more; running handlers may still finish.
      session.close(false);
      void session.whenIdle().then(() => writer.finish(resolve));
    };
    input.on('end', finish);
    input.on('close', finish);
    input.on('error', (error: Error) => {
      core.log(`stdin failed: ${error.message}`);
      finish();
    });
  });
}

class StdioOutbound implements Outbound {
  readonly canEmit = true;
  inputEnded = false;
  private readonly input: Readable;
  private readonly output: Writable;
  private queued = '';
  private queuedCount = 0;
  private holding = false;
  private scheduled = false;
  private broken = false;
  /** Input is paused until the output drains. */
  awaitingDrain = false;
  /** Input is paused while the rest of a chunk is read (see `consume`); drain must not resume it. */
  inputHeld = false;
  private readonly flushSoon = (): void => {
    this.scheduled = false;
    this.flush();
  };
  private readonly resumeInput = (): void => {
    this.awaitingDrain = false;
    if (!this.inputEnded && !this.inputHeld) this.input.resume();
  };

  constructor(input: Readable, output: Writable, log: (line: string) => void) {
    this.input = input;
    this.output = output;
    output.on('error', (error: Error) => {
      if (!this.broken) log(`stdout failed, dropping further output: ${error.message}`);
      this.broken = true;
    });
  }

  respond(text: string): void {
    this.queue(text);
  }

  emit(text: string): void {
    this.queue(text);
  }

  abandon(): void {}

  /** Gather everything written until `release`, then write it at once. */
  hold(): void {
    this.holding = true;
  }

  release(): void {
    this.holding = false;
    this.flush();
  }

  finish(done: () => void): void {
    const data = this.queued;
    this.queued = '';
    this.queuedCount = 0;
    if (data === '' || this.broken) done();
    else this.output.write(data, () => done());
  }

  private queue(text: string): void {
    this.queued = this.queued === '' ? text + '\n' : this.queued + text + '\n';
    // Batching pays for small messages; joining big ones only costs copies.
    if (++this.queuedCount >= FLUSH_COUNT || this.queued.length >= FLUSH_THRESHOLD) this.flush();
    else if (!this.holding && !this.scheduled) {
      this.scheduled = true;
      // After the current run of promise reactions: batches the answers of handlers that finish
      // together, without waiting for the next event-loop phase.
      process.nextTick(this.flushSoon);
    }
  }

  private flush(): void {
    this.queuedCount = 0;
    if (this.queued === '') return;
    const data = this.queued;
    this.queued = '';
    if (this.broken) return;
    if (!this.output.write(data) && !this.awaitingDrain && !this.inputEnded) {
      this.awaitingDrain = true;
      this.input.pause();
      this.output.once('drain', this.resumeInput);
    }
  }
}
