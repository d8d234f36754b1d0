/**
 * Errors a client call can reject with. Each is a class so apps can tell them apart with
 * `instanceof`; each keeps what the server sent, so nothing is lost by rejecting.
 */
import type { ValidationIssue } from '../api.js';
import { describeIssues } from '../protocol/jsonrpc.js';

/**
 * A tool answered with `isError: true`; `content` is what it said. Also a call refused because the
 * client did not declare a capability the tool needs (URL elicitation, sampling tools) in both eras:
 * at 2026-07-28 the server says so with -32021 (`requiredCapabilities` names what is missing, `result`
 * holds the error's message as a text block); at 2025-11-25 with a tool error.
 */
export class ToolError extends Error {
  readonly tool: string;
  readonly content: unknown[];
  /** The whole result as received. */
  readonly result: { [key: string]: unknown };
  /** The client capabilities the server said the call needs, when it named them. */
  readonly requiredCapabilities: { [key: string]: unknown } | undefined;

  constructor(
    tool: string,
    result: { [key: string]: unknown },
    requiredCapabilities?: { [key: string]: unknown },
  ) {
    const content = Array.isArray(result['content']) ? (result['content'] as unknown[]) : [];
    const text = content
      .map(
        (block) =>
          (typeof block === 'object' && block !== null && (block as { text?: unknown }).text) || '',
      )
      .filter((t): t is string => typeof t === 'string' && t !== '')
      .join('\n');
    super(`Tool ${tool} failed${text === '' ? '' : `: ${text}`}`);
    this.name = 'ToolError';
    this.tool = tool;
    this.content = content;
    this.result = result;
    this.requiredCapabilities = requiredCapabilities;
  }
}

/** A result that breaks the tool's own outputSchema (or has no structured content although it declares one). */
export class OutputValidationError extends Error {
  readonly tool: string;
  /** The result exactly as received, for logging or a lenient fallback. */
  readonly result: unknown;
  readonly issues: readonly ValidationIssue[];

  constructor(
    tool: string,
    result: unknown,
    issues: readonly ValidationIssue[] | null | undefined,
    reason?: string,
  ) {
    super(
      `Tool ${tool} returned a result that does not match its outputSchema: ${reason ?? describeIssues(issues)}`,
    );
    this.name = 'OutputValidationError';
    this.tool = tool;
    this.result = result;
    this.issues = issues ?? [];
  }
}

/** No answer within `timeoutMs`; the request was cancelled. */
export class RequestTimeoutError extends Error {
  readonly method: string;
  constructor(method: string, timeoutMs: number) {
    super(`${method} did not answer within ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
    this.method = method;
  }
}

/** The connection ended (or was closed) before the answer arrived. */
export class ConnectionClosedError extends Error {
  constructor(message = 'The connection to the MCP server is closed') {
    super(message);
    this.name = 'ConnectionClosedError';
  }
}

/** An HTTP answer that carries no JSON-RPC message. */
export class HttpStatusError extends Error {
  readonly status: number;
  readonly body: string;
  constructor(status: number, body: string, what: string) {
    super(`${what}: HTTP ${status}${body === '' ? '' : ` ${body.slice(0, 200)}`}`);
    this.name = 'HttpStatusError';
    this.status = status;
    this.body = body;
  }
}

/** HTTP 404 on a request that carried a session id: the server forgot the session. */
export class SessionExpiredError extends Error {
  constructor() {
    super('The server ended the session (HTTP 404)');
    this.name = 'SessionExpiredError';
  }
}

/** The largest message the client reads from a server unless told otherwise (`maxMessageBytes`). */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * The server sent a message larger than `maxMessageBytes` (a stdio line, an SSE event, an HTTP
 * body): it was not read, so a broken or hostile server cannot make the client hold memory without
 * end. What carried it is closed: the stdio connection (the server is stopped), or the HTTP
 * response (the session stays usable). The call it answered, if any, rejects with this error.
 */
export class MessageTooLargeError extends Error {
  readonly limit: number;
  constructor(limit: number, where: string) {
    super(
      `The server sent a message over ${limit} bytes (maxMessageBytes) ${where}; it was not read`,
    );
    this.name = 'MessageTooLargeError';
    this.limit = limit;
  }
}
