/**
 * JSON-RPC 2.0 wire helpers. Responses are built as strings around pre-serialized parts so a
 * result is stringified exactly once and each message is written with a single call.
 */
import type { JsonObject, ValidationIssue } from '../api.js';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** MCP's code for `resources/read` of an unknown URI. */
export const RESOURCE_NOT_FOUND = -32002;
/** Transport-level refusals (HTTP 400/403/405/406/415), following the official SDK's choice. */
export const TRANSPORT_ERROR = -32000;
/** A request beyond `limits.maxInFlight`: the server is busy, the client may retry. */
export const TOO_MANY_REQUESTS = -32000;
/** HTTP 404 for an unknown or expired `Mcp-Session-Id`. */
export const SESSION_NOT_FOUND = -32001;

/** MCP request ids are strings or integers; `null` is not allowed. */
export type RequestId = string | number;

/**
 * Integer ids must be safe integers: beyond ±(2^53 - 1) JSON.parse has already rounded the id
 * (9007199254740993 reads as 9007199254740992), and an answer with the rounded id would be one
 * the client cannot correlate. Such a request is refused (-32600, id null) instead.
 */
export function isRequestId(id: unknown): id is RequestId {
  return typeof id === 'string' || Number.isSafeInteger(id);
}

/** Why `id` is not a request id, for the -32600 message. */
export function idProblem(id: unknown): string {
  return typeof id === 'number' && Number.isInteger(id)
    ? 'id must be a string or an integer from -(2^53 - 1) to 2^53 - 1 (larger integers lose precision)'
    : 'id must be a string or an integer';
}

/**
 * The id as JSON text, ready to splice into a response.
 *
 * Not `'' + id` or `String(id)`: those go through V8's number-to-string cache, which keeps the
 * string of every numeric id alive until its slot is reused thousands of ids later. Clients number
 * their requests upward, so every id's string was promoted out of the young generation; that steady
 * trickle made V8 grow its young generation, a step of RSS (bench/RESULTS.md, `bench:memory`).
 * JSON.stringify writes the digits into a fresh string that dies with the response.
 */
export function idJson(id: RequestId): string {
  return JSON.stringify(id);
}

export const NULL_ID = 'null';

/**
 * The longest piece of client input (in UTF-16 code units) that an error message, error data or a
 * log line quotes: method, tool, prompt and logging-level names, URIs, property names, headers.
 * Every such quote goes through `quote`, so no answer grows with what the client sent.
 */
export const MAX_QUOTED_LENGTH = 200;

/** `text` cut to `MAX_QUOTED_LENGTH`, saying how long it was; never splits a surrogate pair. */
export function quote(text: string): string {
  if (text.length <= MAX_QUOTED_LENGTH) return text;
  let end = MAX_QUOTED_LENGTH;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}

/** Any client value quoted as text: strings as they are, others as JSON, then cut by `quote`. */
export function quoteValue(value: unknown): string {
  return quote(typeof value === 'string' ? value : (jsonOrUndefined(value) ?? String(value)));
}

export function resultMessage(idText: string, resultJson: string): string {
  return '{"jsonrpc":"2.0","id":' + idText + ',"result":' + resultJson + '}';
}

export function errorMessage(
  idText: string,
  code: number,
  message: string,
  data?: unknown,
): string {
  const dataJson = data === undefined ? undefined : jsonOrUndefined(data);
  return (
    '{"jsonrpc":"2.0","id":' +
    idText +
    ',"error":{"code":' +
    code +
    ',"message":' +
    JSON.stringify(message) +
    (dataJson === undefined ? '}}' : ',"data":' + dataJson + '}}')
  );
}

export function notificationMessage(method: string, paramsJson: string): string {
  return '{"jsonrpc":"2.0","method":' + JSON.stringify(method) + ',"params":' + paramsJson + '}';
}

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Copies `source`'s own keys into `target` (a later value wins) and returns it: what
 * `{ ...target, ...source }` gives, built key by key, since on Node 20's V8 adding keys to a spread
 * copy is many times slower, and the clients make such copies on every request. A key `__proto__`
 * stays an own key, as a spread keeps it (assigning it would set the prototype).
 */
export function assignOwn<T>(
  target: Record<string, T>,
  source: Readonly<Record<string, T>>,
): Record<string, T> {
  for (const key of Object.keys(source)) {
    if (key === '__proto__')
      Object.defineProperty(target, key, {
        value: source[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else target[key] = source[key] as T;
  }
  return target;
}

/** JSON text of `value`, or undefined when it cannot be serialized (cycles, BigInt, functions). */
export function jsonOrUndefined(value: unknown): string | undefined {
  try {
    const text: unknown = JSON.stringify(value);
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when `text` nests arrays and objects deeper than `max`. Strings are skipped with indexOf,
 * so the cost follows the number of brackets and quotes, not the length of string values.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  // Most messages hold fewer opening brackets than `max` in all (strings included), which native
  // searches count faster than the scan below walks the text.
  let brackets = 0;
  for (let i = text.indexOf('{'); i !== -1 && brackets <= max; i = text.indexOf('{', i + 1))
    brackets++;
  for (let i = text.indexOf('['); i !== -1 && brackets <= max; i = text.indexOf('[', i + 1))
    brackets++;
  if (brackets <= max) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Find the closing quote: one not preceded by an odd run of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i === -1) return false;
        let slashes = 0;
        while (text.charCodeAt(i - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** `idText`: the refused request's id when it could be read without parsing (json-scan.ts). */
export function tooDeepMessage(max: number, idText: string = NULL_ID): string {
  return errorMessage(
    idText,
    INVALID_REQUEST,
    `Invalid Request: the message nests deeper than ${max} levels`,
  );
}

export function tooLargeMessage(max: number, idText: string = NULL_ID): string {
  return errorMessage(
    idText,
    INVALID_REQUEST,
    `Invalid Request: the message is larger than ${max} bytes`,
  );
}

/**
 * `idText`: the request's id when it can still be read from the broken text (json-scan.ts), so a
 * client waiting on that id gets its answer, not a timeout.
 */
export function parseErrorMessage(idText: string = NULL_ID): string {
  return errorMessage(idText, PARSE_ERROR, 'Parse error: the message is not valid JSON');
}

const MAX_DESCRIBED_ISSUES = 5;

/**
 * One line naming each failing field and why, e.g.
 * `/units must be equal to one of the allowed values (celsius, fahrenheit)`.
 */
export function describeIssues(issues: readonly ValidationIssue[] | null | undefined): string {
  if (!issues || issues.length === 0) return 'value does not match the schema';
  let text = describeIssue(issues[0]!);
  const shown = Math.min(issues.length, MAX_DESCRIBED_ISSUES);
  for (let i = 1; i < shown; i++) text += '; ' + describeIssue(issues[i]!);
  if (issues.length > shown) text += `; and ${issues.length - shown} more`;
  return text;
}

function describeIssue(issue: ValidationIssue): string {
  let text = issue.message ?? `fails "${issue.keyword}"`;
  const params = issue.params;
  if (params !== undefined) {
    if (issue.keyword === 'enum' && Array.isArray(params['allowedValues'])) {
      text += ' (' + params['allowedValues'].map(displayValue).join(', ') + ')';
    } else if (issue.keyword === 'const' && 'allowedValue' in params) {
      text += ' (' + displayValue(params['allowedValue']) + ')';
    } else if (
      issue.keyword === 'additionalProperties' &&
      typeof params['additionalProperty'] === 'string'
    ) {
      text += ` ('${quote(params['additionalProperty'])}')`;
    }
  }
  // The path is made of the client's property names.
  return issue.instancePath === '' ? text : quote(issue.instancePath) + ' ' + text;
}

function displayValue(value: unknown): string {
  return typeof value === 'string' ? value : (jsonOrUndefined(value) ?? String(value));
}

/** 2026-07-28: an HTTP header is missing, malformed or disagrees with the body (HTTP 400). */
export const HEADER_MISMATCH = -32020;
/** 2026-07-28: the request needs a client capability its `_meta` does not declare (HTTP 400). */
export const MISSING_CAPABILITY = -32021;
/** 2026-07-28: the request's protocol version is not served here (HTTP 400). */
export const UNSUPPORTED_VERSION = -32022;
