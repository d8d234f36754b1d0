/// <reference types="node" />
/**
 * The stdio transport: newline-delimited JSON-RPC on stdin/stdout. Only JSON-RPC goes to stdout;
 * diagnostics go to the server's logger (stderr by default). This file reads stdin as lines; what
 * one line becomes is `stdio-messages.ts`, and when and how answers are written (batches per input
 * chunk, back-pressure) `stdio-output.ts`.
 */
import type { Readable, Writable } from 'node:stream';
import { Buffer } from 'node:buffer';
import { tooLargeMessage } from '../../protocol/jsonrpc.js';
import { scanRequestId } from '../../protocol/json-scan.js';
import type { ServerCore } from '../../server/server.js';
import { Session } from '../../server/session.js';
import { StdioMessages } from './stdio-messages.js';
import { StdioOutput } from './stdio-output.js';

export interface StdioStreams {
  input: Readable;
  output: Writable;
}

/** Resolves when the input ends and every in-flight request has been answered. */
export function serveStdio(core: ServerCore, io?: StdioStreams): Promise<void> {
  const input = io?.input ?? process.stdin;
  const output = io?.output ?? process.stdout;
  const session = new Session(core, undefined);
  const writer = new StdioOutput(input, output, core.log);
  session.standalone = writer;
  const messages = new StdioMessages(core, session, writer);
  return new Promise((resolve) => {
    const ended = (): void => {
      // Nobody can answer a server→client request any more; running handlers may still finish,
      // and so may messages waiting for the request validators to load (dispatch.ts).
      session.close(false);
      void Promise.resolve(core.requestValidatorsLoading)
        .catch(() => {})
        .then(() => session.whenIdle())
        .then(() => writer.finish(resolve));
    };
    new StdioInput(input, writer, session, messages, core.limits.maxMessageBytes, ended).start(
      core.log,
    );
  });
}

/**
 * stdin cut into lines. A line longer than the size limit is skipped as it arrives, never held
 * whole; a chunk's lines are read one after another, with a pause after each whose handler went
 * async (see `consume`); the end of the input waits for the rest of the chunk being read.
 */
class StdioInput {
  private readonly input: Readable;
  private readonly writer: StdioOutput;
  /** The stdio session: how many of its handlers went async tells `consume` when to pause. */
  private readonly session: Session;
  private readonly messages: StdioMessages;
  private readonly maxMessageBytes: number;
  /** Runs once, after the last line has been received. */
  private readonly ended: () => void;
  /** The beginning of a line whose newline has not arrived yet. */
  private partial = '';
  private partialBytes = 0;
  /**
   * Set while the rest of an oversized line is skipped: it is never held in memory. Only the id
   * read from its beginning (at most maxMessageBytes, already held) is kept for the refusal.
   */
  private dropping = false;
  private droppedId: string | undefined;
  private finished = false;
  /** The input ended while a chunk was still being read: end after it. */
  private finishPending = false;
  /** The request validators are there, or were waited for once (`validatorsPending`). */
  private validatorsChecked = false;

  constructor(
    input: Readable,
    writer: StdioOutput,
    session: Session,
    messages: StdioMessages,
    maxMessageBytes: number,
    ended: () => void,
  ) {
    this.input = input;
    this.writer = writer;
    this.session = session;
    this.messages = messages;
    this.maxMessageBytes = maxMessageBytes;
    this.ended = ended;
  }

  start(log: (line: string) => void): void {
    const { input } = this;
    input.setEncoding('utf8');
    input.on('data', this.received);
    input.on('end', this.finish);
    input.on('close', this.finish);
    input.on('error', (error: Error) => {
      log(`stdin failed: ${error.message}`);
      this.finish();
    });
  }

  private readonly received = (chunk: string): void => {
    const newline = chunk.indexOf('\n');
    if (newline === -1) {
      if (this.dropping) return;
      this.partialBytes += Buffer.byteLength(chunk);
      if (this.partialBytes > this.maxMessageBytes) {
        this.startDropping(this.partial === '' ? chunk : this.partial + chunk);
      } else {
        this.partial += chunk;
      }
      return;
    }
    const pending = this.validatorsChecked ? undefined : this.validatorsPending();
    if (pending !== undefined) {
      this.holdInput();
      void pending.then(() => this.received(chunk));
      return;
    }
    this.writer.hold();
    const started = this.session.asyncStarted;
    if (this.dropping) {
      this.refuseDropped();
    } else {
      const partial = this.partial;
      this.messages.receive(
        partial === '' ? chunk.slice(0, newline) : partial + chunk.slice(0, newline),
      );
    }
    this.partial = '';
    this.partialBytes = 0;
    this.consume(chunk, newline + 1, started);
  };

  /**
   * The lines of `chunk` from `start` on. After a line whose handler returned a promise, the rest
   * waits for one microtask turn (input paused), so that handler's answer is built and written
   * before the next handler runs. Otherwise the results of every request of a chunk (dozens when
   * a client pipelines calls) are alive at once, survive V8's young-generation collections and
   * make it grow its heap.
   */
  private consume(chunk: string, start: number, started: number): void {
    const { session, writer } = this;
    let newline = chunk.indexOf('\n', start);
    while (newline !== -1) {
      const pending = this.validatorsChecked ? undefined : this.validatorsPending();
      if (session.asyncStarted !== started || pending !== undefined) {
        this.holdInput();
        const from = start;
        const now = session.asyncStarted;
        const next = (): void => this.consume(chunk, from, now);
        if (pending === undefined) queueMicrotask(next);
        else void pending.then(next);
        return;
      }
      this.messages.receive(chunk.slice(start, newline));
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    this.partial = start < chunk.length ? chunk.slice(start) : '';
    if (this.partial !== '') {
      this.partialBytes = Buffer.byteLength(this.partial);
      if (this.partialBytes > this.maxMessageBytes) this.startDropping(this.partial);
    }
    writer.release();
    if (writer.inputHeld) {
      writer.inputHeld = false;
      if (this.finishPending) this.finish();
      else if (!writer.awaitingDrain && !this.finished) this.input.resume();
    }
  }

  private holdInput(): void {
    if (!this.writer.inputHeld) {
      this.writer.inputHeld = true;
      this.input.pause();
    }
  }

  /**
   * Once `initialize` is answered, the other request validators load (a dynamic import, see
   * `ServerDefinition.requestValidators`) before the next line is read: the lines behind it keep
   * their order. Undefined when there is nothing to wait for. A failed load is answered per
   * request (dispatch.ts).
   */
  private validatorsPending(): Promise<void> | undefined {
    const { core } = this.session;
    if (core.validators === undefined && !this.session.initialized) return undefined;
    this.validatorsChecked = true;
    return core.validators === undefined ? core.loadRequestValidators().catch(() => {}) : undefined;
  }

  private startDropping(head: string): void {
    this.dropping = true;
    this.droppedId = scanRequestId(head, this.maxMessageBytes);
    this.partial = '';
  }

  private refuseDropped(): void {
    this.dropping = false;
    this.writer.respond(tooLargeMessage(this.maxMessageBytes, this.droppedId));
    this.droppedId = undefined;
  }

  private readonly finish = (): void => {
    if (this.finished) return;
    if (this.writer.inputHeld) {
      // The rest of a chunk is still being read: end after it.
      this.finishPending = true;
      return;
    }
    this.finished = true;
    this.writer.inputEnded = true;
    if (this.dropping) this.refuseDropped();
    else if (this.partial !== '') this.messages.receive(this.partial);
    this.ended();
  };
}
