/// <reference types="node" />
/**
 * The stdio client transport: spawns the server, writes newline-delimited JSON-RPC to its stdin
 * and reads it from its stdout. The server's stderr is passed through (default), captured for the
 * app, or ignored. Shutdown: close stdin, then SIGTERM, then SIGKILL, each after a grace period.
 *
 * Writes: the messages sent in one turn of the event loop share a write. When the server reads
 * slower than the app sends, the pipe fills: then one wait for `drain` holds every later message,
 * which go out together once it drains, and `send` resolves only when its message was written.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { cancelledNotification } from './cancellation.js';
import {
  ConnectionClosedError,
  DEFAULT_MAX_MESSAGE_BYTES,
  MessageTooLargeError,
} from './errors.js';
import { StdioLines } from './stdio-lines.js';
import type { ClientTransport, OutgoingInfo } from './transport.js';
import { CANCELLED } from '../protocol/methods.js';

export interface StdioServerParameters {
  command: string;
  args?: readonly string[];
  /** Added to the parent's environment (which the server inherits). */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
  /** `inherit` (default) writes the server's stderr to ours; a function receives it; `ignore` drops it. */
  stderr?: 'inherit' | 'ignore' | ((text: string) => void);
  /** Milliseconds to wait after closing stdin, and again after SIGTERM (default 2000). */
  shutdownGraceMs?: number;
  /**
   * A line from the server over this many bytes is not read: the connection ends with
   * `MessageTooLargeError` (every waiting call rejects with it) and the server is stopped. Default 64 MiB.
   */
  maxMessageBytes?: number;
}

export class StdioClientTransport implements ClientTransport {
  private readonly parameters: StdioServerParameters;
  private child: ChildProcess | undefined;
  /** Messages not yet written, as newline-terminated lines. */
  private queued = '';
  /** Resolves when `queued` has been written; every message in it shares this promise. */
  private writing: Promise<void> | undefined;
  /** Settles `writing`. */
  private written: { resolve: () => void; reject: (error: Error) => void } | undefined;
  /** Set while the pipe is full: the one `drain` wait every write behind it shares. */
  private drained: Promise<void> | undefined;
  private exited: Promise<void> = Promise.resolve();
  private closing = false;

  constructor(parameters: StdioServerParameters) {
    this.parameters = parameters;
  }

  /** The server's process id, once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(
    receive: (message: unknown, text: string) => void,
    closed: (error?: Error) => void,
  ): Promise<void> {
    const p = this.parameters;
    const stderr = p.stderr ?? 'inherit';
    const child = spawn(p.command, [...(p.args ?? [])], {
      cwd: p.cwd,
      env: p.env ? { ...process.env, ...p.env } : process.env,
      stdio: ['pipe', 'pipe', typeof stderr === 'function' ? 'pipe' : stderr],
      shell: false,
      windowsHide: true,
    });
    this.child = child;
    if (typeof stderr === 'function') {
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => stderr(text));
    }
    this.exited = new Promise((resolve) => child.once('close', () => resolve()));
    child.stdin?.on('error', () => {});

    const maxBytes = p.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    let tooLarge = false;
    const lines = new StdioLines(
      (text) => {
        if (text === '' || text === '\r') return;
        let message: unknown;
        try {
          message = JSON.parse(text);
        } catch {
          // Not protocol output; a misbehaving server, not a reason to stop listening.
          return;
        }
        receive(message, text);
      },
      maxBytes,
      () => {
        // No way to find where the next message starts but reading this one: the connection ends.
        tooLarge = true;
        closed(new MessageTooLargeError(maxBytes, 'on stdout'));
        child.stdout?.destroy();
        void this.close();
      },
    );
    child.stdout?.on('data', (chunk: Buffer) => lines.push(chunk));
    child.once('close', (code, signal) => {
      lines.end();
      if (tooLarge) return;
      closed(
        new ConnectionClosedError(
          this.closing ? undefined : `The server process exited (${signal ?? `code ${code}`})`,
        ),
      );
    });
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) => {
        closed(error);
        reject(error);
      });
    });
  }

  send(text: string, _info: OutgoingInfo): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || this.closing)
      return Promise.reject(new ConnectionClosedError());
    this.queued += text + '\n';
    if (this.writing === undefined) {
      // One promise per write, settled by `flush`: nothing else is allocated per message.
      this.writing = new Promise((resolve, reject) => {
        this.written = { resolve, reject };
      });
      process.nextTick(flushQueued, this, stdin);
    }
    return this.writing;
  }

  /** stdio has no per-request stream: the server is told with `notifications/cancelled`, whatever the revision. */
  cancel(id: string | number, reason: string): Promise<void> {
    return this.send(cancelledNotification(id, reason), { method: CANCELLED });
  }

  /**
   * Writes what is queued (called after the turn of the event loop that queued it), once the pipe
   * has drained if it was full; then settles the promise every message in the write shares.
   * @internal
   */
  flush(stdin: Writable): void {
    if (this.drained !== undefined) {
      void this.drained.then(() => this.flush(stdin));
      return;
    }
    const data = this.queued;
    const written = this.written;
    this.queued = '';
    this.writing = undefined;
    this.written = undefined;
    if (stdin.destroyed || stdin.writableEnded) {
      written?.reject(new ConnectionClosedError());
      return;
    }
    if (!stdin.write(data)) this.drained = drainOf(stdin).finally(() => (this.drained = undefined));
    written?.resolve();
  }

  setProtocolVersion(): void {}

  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closing) return this.exited;
    this.closing = true;
    if (child.exitCode !== null || child.signalCode !== null) return this.exited;
    const grace = this.parameters.shutdownGraceMs ?? 2000;
    const waitExit = (ms: number): Promise<boolean> =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        void this.exited.then(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    child.stdin?.end();
    if (await waitExit(grace)) return;
    child.kill('SIGTERM');
    if (await waitExit(grace)) return;
    child.kill('SIGKILL');
    await this.exited;
  }
}

/** `transport.flush(stdin)`, as process.nextTick calls it (no closure per write). */
function flushQueued(transport: StdioClientTransport, stdin: Writable): void {
  transport.flush(stdin);
}

/** Resolves when `stream` drains, or when it can no longer (closed, failed). */
function drainOf(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done).off('close', done).off('error', done);
      resolve();
    };
    stream.on('drain', done).on('close', done).on('error', done);
  });
}
