/**
 * What a request to the Streamable HTTP endpoint must pass before it is routed: the Host check
 * (against DNS rebinding), the Origin check (against cross-site calls from browsers; an allowed
 * origin's preflight is answered here, before any credentials are asked for, http-cors.ts), the
 * `authorize` hook and, with `auth`, the bearer token. http.ts routes what gets through.
 */
import type { HttpRequestIn, HttpResponseOut } from './http-exchange.js';
import type { AuthInfo } from '../../api.js';
import type { HttpRulesOptions } from './http-options.js';
import { TRANSPORT_ERROR, quote } from '../../protocol/jsonrpc.js';
import { sendError } from './http-reply.js';
import { headerText } from './http-rules.js';
import { allowOrigin, answerPreflight } from './http-cors.js';
import { isRefusal, sendRefusal, type AuthRefusal, type ResourceServerAuth } from './http-auth.js';

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** A bind address or URL hostname naming this machine (`::1` as bound, `[::1]` as in a URL). */
function isLoopbackName(host: string): boolean {
  return host === '::1' || LOOPBACK_HOSTS.includes(host);
}

/** The `authorize` hook, called with the adapter's own request (node:http's, or the platform's `Request`). */
export type AuthorizeHook<Req> = (req: Req) => boolean | Promise<boolean>;

export class HttpAdmission<Req extends HttpRequestIn> {
  private readonly allowedOrigins: ReadonlySet<string> | undefined;
  private readonly allowedHosts: ReadonlySet<string> | undefined;
  private readonly authorize: AuthorizeHook<Req> | undefined;
  private readonly auth: ResourceServerAuth | undefined;
  private readonly log: (line: string) => void;
  private readonly failed: (res: HttpResponseOut, error: unknown) => void;

  /**
   * `bindHost` is the address the server listens on; `log` reports a failing `authorize`, and
   * `failed` answers a request whose token check threw.
   */
  constructor(
    bindHost: string,
    options: HttpRulesOptions & { authorize?: AuthorizeHook<Req> | undefined },
    log: (line: string) => void,
    failed: (res: HttpResponseOut, error: unknown) => void,
  ) {
    this.log = log;
    this.failed = failed;
    this.allowedOrigins =
      options.allowedOrigins && new Set(options.allowedOrigins.map((o) => o.toLowerCase()));
    if (options.allowedHosts !== undefined) {
      this.allowedHosts = new Set(options.allowedHosts.map((h) => h.toLowerCase()));
    } else if (isLoopbackName(bindHost)) {
      this.allowedHosts = new Set(LOOPBACK_HOSTS);
    }
    this.authorize = options.authorize;
    this.auth = options.auth;
  }

  /** Runs every check; `admitted` gets the request only when all pass (with its caller under `auth`). */
  admit(req: Req, res: HttpResponseOut, admitted: (auth: AuthInfo | undefined) => void): void {
    const host = headerText(req.headers, 'host');
    if (!this.hostAllowed(host)) {
      sendError(
        res,
        403,
        TRANSPORT_ERROR,
        `Forbidden: Host ${quote(host ?? '(missing)')} is not allowed`,
      );
      return;
    }
    const rawOrigin = req.headers['origin'];
    // node:http joins a repeated Origin into one string; an array (any other server) is one too.
    const origin = Array.isArray(rawOrigin) ? rawOrigin.join(', ') : rawOrigin;
    if (origin !== undefined && !this.originAllowed(origin)) {
      sendError(res, 403, TRANSPORT_ERROR, `Forbidden: Origin ${quote(origin)} is not allowed`);
      return;
    }
    if (origin !== undefined) {
      if (req.method === 'OPTIONS') return answerPreflight(req, res, origin);
      // Set now, so every answer carries them: SSE, JSON, and refusals (401 with WWW-Authenticate).
      allowOrigin(res, origin);
    }
    if (this.authorize === undefined) this.authenticated(req, res, admitted);
    else {
      const allow = (allowed: boolean): void => {
        if (allowed === true) this.authenticated(req, res, admitted);
        else sendError(res, 401, TRANSPORT_ERROR, 'Unauthorized');
      };
      try {
        const verdict = this.authorize(req);
        if (typeof verdict === 'boolean') allow(verdict);
        else
          verdict.then(allow, (error: unknown) => {
            this.log(
              `authorize failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
            );
            sendError(res, 500, TRANSPORT_ERROR, 'Internal Server Error');
          });
      } catch (error) {
        this.log(
          `authorize failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        sendError(res, 500, TRANSPORT_ERROR, 'Internal Server Error');
      }
    }
  }

  /** With `auth`: the bearer token checked before anything else looks at the request. */
  private authenticated(
    req: HttpRequestIn,
    res: HttpResponseOut,
    admitted: (auth: AuthInfo | undefined) => void,
  ): void {
    if (this.auth === undefined) {
      admitted(undefined);
      return;
    }
    let verdict: ReturnType<ResourceServerAuth['authenticate']>;
    try {
      verdict = this.auth.authenticate(req);
    } catch (error) {
      // It should never throw; if it does, this request fails and the server keeps serving.
      this.failed(res, error);
      return;
    }
    const decided = (known: AuthInfo | AuthRefusal): void => {
      if (isRefusal(known)) sendRefusal(res, known);
      else admitted(known);
    };
    if (verdict instanceof Promise)
      verdict.then(decided, (error: unknown) => this.failed(res, error));
    else decided(verdict);
  }

  hostAllowed(host: string | undefined): boolean {
    if (this.allowedHosts === undefined) return true;
    if (host === undefined) return false;
    const lower = host.toLowerCase();
    if (this.allowedHosts.has(lower)) return true;
    const colon = lower.lastIndexOf(':');
    return colon > lower.lastIndexOf(']') && this.allowedHosts.has(lower.slice(0, colon));
  }

  private originAllowed(origin: string): boolean {
    if (this.allowedOrigins !== undefined) return this.allowedOrigins.has(origin.toLowerCase());
    try {
      const parsed = new URL(origin);
      return (
        (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
        isLoopbackName(parsed.hostname)
      );
    } catch {
      return false;
    }
  }
}
