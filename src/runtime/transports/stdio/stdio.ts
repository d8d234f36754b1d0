/// <reference types="node" />
/**
 * The stdio transport: newline-delimited JSON-RPC on stdin/stdout. Only JSON-RPC goes to stdout;
 * diagnostics go to the server's logger (stderr by default). When and how answers are written
 * (batches per input chunk, back-pressure) is `stdio-output.ts`.
 */
import type { Readable, Writable } from 'node:stream';
import { Buffer } from 'node:buffer';
import {
  PARSE_ERROR_MESSAGE,
  idJson,
  isObject,
  isRequestId,
  nestsDeeperThan,
  tooDeepMessage,
  tooLargeMessage,
} from '../../protocol/jsonrpc.js';
import type { ServerCore } from '../../server/server.js';
import { Session } from '../../server/session.js';
import { checkStateless, isStatelessMessage, withResultFields } from '../../server/stateless.js';
import { scanRequestId } from '../../protocol/json-scan.js';
import { StdioOutput } from './stdio-output.js';

export interface StdioStreams {
  input: Readable;
  output: Writable;
}

const BLANK = /^\s*$/;

/** Resolves when the input ends and every in-flight request has been answered. */
export function serveStdio(core: ServerCore, io?: StdioStreams): Promise<void> {
  const input = io?.input ?? process.stdin;
  const output = io?.output ?? process.stdout;
  const session = new Session(core, undefined);
  const writer = new StdioOutput(input, output, core.log);
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
        writer.respond(withResultFields(text, idText, method, core));
      },
      emit: (text) => writer.emit(text),
      abandon: () => stateless.delete(id),
    });
  };
  const { maxMessageBytes, maxDepth } = core.limits;
  // A UTF-16 code unit is 1 to 3 bytes of UTF-8: only long lines need counting.
  const tooLarge = (text: string): boolean =>
    text.length > maxMessageBytes ||
    (text.length * 3 > maxMessageBytes && Buffer.byteLength(text) > maxMessageBytes);

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
    if (
      isObject(message) &&
      message['method'] === 'notifications/cancelled' &&
      isObject(message['params'])
    ) {
      const target = message['params']['requestId'];
      const running = isRequestId(target) ? stateless.get(target) : undefined;
      if (running !== undefined) {
        running.receive(message, writer);
        return;
      }
    }
    if (
      isObject(message) &&
      !Array.isArray(message) &&
      !session.initialized &&
      isStatelessMessage(message, undefined)
    ) {
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
