/// <reference types="node" />
/**
 * What the stdio transport writes to stdout, and when.
 *
 * While one input chunk is served (`hold` … `release`), its answers go out in batches that double:
 * the first `FIRST_BATCH` answers, then twice as many, and so on, and what is left when the chunk
 * ends. A client that pipelines its calls sends them as one chunk; it gets its first answers while
 * the server still works on the rest, so the two processes work side by side (one write per chunk
 * made them take turns: the client waited for every answer, then the server for every next call),
 * and a chunk of n calls still costs only about log2(n / FIRST_BATCH) + 1 writes. Each write is a
 * system call, and one that finds the client waiting also wakes it: writing after every few
 * answers costs more CPU per call than writing each answer as it goes.
 *
 * Messages produced later (async handlers finishing after their chunk) are gathered until the
 * promise reactions running at the time have settled (`process.nextTick`), so handlers finishing
 * together share a write. When stdout reports back-pressure, stdin is paused until it drains.
 */
import type { Readable, Writable } from 'node:stream';
import type { Outbound } from '../../server/outbound.js';

/** Answers of a chunk in its first write. Small enough to reach the client early, large enough to save writes. */
export const FIRST_BATCH = 8;
/** Characters gathered before a write is forced: batching pays for small messages; joining big ones only costs copies. */
export const FLUSH_THRESHOLD = 16 * 1024;

export class StdioOutput implements Outbound {
  readonly canEmit = true;
  inputEnded = false;
  /** Input is paused until the output drains. */
  awaitingDrain = false;
  /** Input is paused while the rest of a chunk is read (see `consume` in stdio.ts); drain must not resume it. */
  inputHeld = false;
  private readonly input: Readable;
  private readonly output: Writable;
  private queued = '';
  /** Messages in `queued`. */
  private queuedCount = 0;
  /** While a chunk is served: the messages the current batch holds before it is written. 0 otherwise. */
  private batch = 0;
  private scheduled = false;
  private broken = false;
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
      // A broken stdout never drains: reading on lets the end of stdin end the server.
      if (this.awaitingDrain) this.resumeInput();
    });
  }

  respond(text: string): void {
    this.queue(text);
  }

  emit(text: string): void {
    this.queue(text);
  }

  abandon(): void {}

  /** An input chunk is being served: its answers go out in doubling batches until `release`. */
  hold(): void {
    this.batch = FIRST_BATCH;
  }

  /**
   * Every line of the chunk has been read. The answer of its last call is usually one promise
   * reaction away (an async handler that did not wait for anything), so what is left is written
   * after the reactions queued so far: one write instead of two.
   */
  release(): void {
    queueMicrotask(this.endChunk);
  }

  private readonly endChunk = (): void => {
    this.batch = 0;
    this.flush();
  };

  finish(done: () => void): void {
    const data = this.queued;
    this.queued = '';
    this.queuedCount = 0;
    if (data === '' || this.broken) done();
    else this.output.write(data, () => done());
  }

  private queue(text: string): void {
    this.queued = this.queued === '' ? text + '\n' : this.queued + text + '\n';
    this.queuedCount++;
    if (this.queued.length >= FLUSH_THRESHOLD) this.flush();
    else if (this.batch !== 0) {
      if (this.queuedCount >= this.batch) {
        this.flush();
        this.batch *= 2;
      }
    } else if (!this.scheduled) {
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
