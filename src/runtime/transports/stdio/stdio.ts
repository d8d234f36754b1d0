/// <reference types="node" />
/**
 * The stdio transport: newline-delimited JSON-RPC on stdin/stdout. Only JSON-RPC goes to stdout;
 * diagnostics go to the server's logger (stderr by default). Reading stdin as lines is
 * `stdio-input.ts`, what one line becomes `stdio-messages.ts`, and when and how answers are
 * written (batches per input chunk, back-pressure) `stdio-output.ts`.
 */
import type { Readable, Writable } from 'node:stream';
import type { ServerCore } from '../../server/server.js';
import { Session } from '../../server/session.js';
import { StdioInput } from './stdio-input.js';
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
      // Nobody can answer a server→client request any more; running handlers may still finish.
      session.close(false);
      void session.whenIdle().then(() => writer.finish(resolve));
    };
    new StdioInput(input, writer, session, messages, core.limits.maxMessageBytes, ended).start(
      core.log,
    );
  });
}
