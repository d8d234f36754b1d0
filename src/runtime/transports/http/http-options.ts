/// <reference types="node" />
/**
 * What `listenHttp` takes, and what it gives back; the options both adapters share
 * (`HttpRulesOptions`) are the Web-standard handler's too (`WebHttpOptions`).
 */
import type { IncomingMessage } from 'node:http';
import type { ServerCore } from '../../server/server.js';
import type { EventStore } from './event-store.js';
import type { ResourceServerAuth } from './http-auth.js';
import type { SessionStore } from './session-store.js';

/** The rules both adapters enforce (http-endpoint.ts): node:http's `listenHttp` and the Web-standard handler. */
export interface HttpRulesOptions {
  /**
   * Origins allowed to call the server (exact `scheme://host[:port]` strings). Default: loopback
   * origins only. Requests without an Origin header (non-browser clients) are always allowed.
   */
  allowedOrigins?: string[];
  /**
   * Allowed Host header values (`name` or `name:port`), against DNS rebinding. Default: the loopback
   * names when bound to a loopback address, no check otherwise (`listenHttp`); the loopback names
   * (the Web-standard handler, which cannot know where it is served: list your public host names).
   */
  allowedHosts?: string[];
  /** Larger POST bodies get 413. Default: the server's `limits.maxMessageBytes` (4 MiB). */
  maxBodyBytes?: number;
  /** Sessions without traffic or running work for this long are ended. Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** Open sessions at most; one more `initialize` gets 503 until one ends. Default 1000. */
  maxSessions?: number;
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
  /**
   * A client that stops reading an SSE stream: when more than this many bytes written to it still
   * wait, the next message cuts its connection instead of waiting too (a session's stream keeps its
   * events for `Last-Event-ID`; a stateless or legacy stream is lost). Default 8 MiB.
   */
  maxUnsentBytes?: number;
}

/** Options both adapters take beside the shared rules. */
interface LegacySseOption {
  /**
   * Serve the legacy HTTP+SSE transport (2024-11-05) beside the endpoint, for clients that still
   * use it: GET `sse` beside it (`/sse` for `/mcp`) opens a session's stream, POST
   * `messages?sessionId=…` sends to it. Never with manifest `auth` or a shared `sessionStore` (a
   * legacy session lives in the process holding its stream), nor where sessions are off. Default true.
   */
  legacySse?: boolean;
}

/** `listenHttp`: the shared rules, plus what node:http itself enforces and the Node `authorize` hook. */
export interface HttpOptions extends HttpRulesOptions, LegacySseOption {
  /** Default 0: any free port (read it from the returned `url`). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default /mcp. */
  path?: string;
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
}

/** The Web-standard handler (`server.fetchHandler`): the shared rules, its path, hook and era choice. */
export interface WebHttpOptions extends HttpRulesOptions, LegacySseOption {
  /** The endpoint's path; other paths get 404 (except the OAuth metadata with `auth`). Default /mcp. */
  path?: string;
  /** As `HttpOptions.authorize`, with the platform's `Request`. */
  authorize?: (request: Request) => boolean | Promise<boolean>;
  /**
   * Whether the stateful revisions (sessions, GET streams, DELETE) are served. They need a process
   * that lives between requests (Node, Bun, Deno) or a shared `sessionStore`; with false, a stateful
   * request gets a 400 that says so, and 2026-07-28 is served as always. Default: true, except on
   * Cloudflare Workers without a `sessionStore`.
   */
  sessions?: boolean;
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
