/// <reference types="node" />
/** What `listenHttp` takes, and what it gives back. */
import type { IncomingMessage } from 'node:http';
import type { ServerCore } from '../../server/server.js';
import type { EventStore } from './event-store.js';
import type { ResourceServerAuth } from './http-auth.js';
import type { SessionStore } from './session-store.js';

export interface HttpOptions {
  /** Default 0: any free port (read it from the returned `url`). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default /mcp. */
  path?: string;
  /**
   * Origins allowed to call the server (exact `scheme://host[:port]` strings). Default: loopback
   * origins only. Requests without an Origin header (non-browser clients) are always allowed.
   */
  allowedOrigins?: string[];
  /**
   * Allowed Host header values (`name` or `name:port`), against DNS rebinding. Default: the loopback
   * names when bound to a loopback address; no check otherwise.
   */
  allowedHosts?: string[];
  /** Larger POST bodies get 413. Default: the server's `limits.maxMessageBytes` (4 MiB). */
  maxBodyBytes?: number;
  /** Sessions without traffic or running work for this long are ended. Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** Open sessions at most; one more `initialize` gets 503 until one ends. Default 1000. */
  maxSessions?: number;
  /** Bytes of request line and headers; more gets 431 (node:http). Default 16 KiB. */
  maxHeaderBytes?: number;
  /** Time to receive a request's headers; slower gets 408 and the connection closed (slowloris). Default 10 s. */
  headersTimeoutMs?: number;
  /** Time to receive a whole request, body included; slower gets 408. Default 30 s. */
  requestTimeoutMs?: number;
  /** An idle keep-alive connection is closed after this long. Default 5 s. */
  keepAliveTimeoutMs?: number;
  /**
   * Called for every request to the endpoint, after the Host and Origin checks and before anything
   * else: false (or a promise of false) answers 401. Put your authentication here, e.g. check an
   * `Authorization: Bearer …` header. Default: everyone is allowed.
   */
  authorize?: (req: IncomingMessage) => boolean | Promise<boolean>;
  /**
   * Makes the endpoint an OAuth 2.1 resource server: the metadata at its well-known paths, a bearer
   * token checked on every request (401), scopes checked before a handler runs (403), sessions bound
   * to the token's subject, `context.auth` for handlers. Made by `createResourceServerAuth` in
   * `runtime/auth/` (generated for manifests with `auth`). Runs after `authorize` when both are set.
   */
  auth?: ResourceServerAuth;
  /** Stores SSE events and gives them ids, for resumption. Default: an `InMemoryEventStore`. */
  eventStore?: EventStore;
  /** Shares sessions between processes (e.g. Redis). Default: none, sessions stay in this process. */
  sessionStore?: SessionStore;
  /** Where task state lives (e.g. Redis, so any process answers `tasks/get`). Default: the server's own (`ServerOptions.tasks.store`). */
  taskStore?: ServerCore['taskStore'];
  /** A standalone GET stream without an event for this long is closed (the client reconnects). Default 5 minutes. */
  idleStreamTimeoutMs?: number;
}

export interface HttpListener {
  /** The endpoint, e.g. `http://127.0.0.1:53127/mcp`. */
  url: string;
  /** Stops listening, ends every session and closes open connections. */
  close(): Promise<void>;
  /**
   * Stops taking requests (503), lets those in flight and the tasks running here finish for up to
   * `deadlineMs`, fails what is left, then closes (http-drain.ts). The generated main.ts calls it on SIGTERM.
   */
  drain(deadlineMs: number): Promise<void>;
}
