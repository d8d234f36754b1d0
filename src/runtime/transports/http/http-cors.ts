/**
 * CORS for web pages on another origin (a browser client generated with `mcp-gen client --browser`).
 * Only an Origin the admission allowed gets here (`allowedOrigins`, or loopback by default); any
 * other is refused with 403 before. A request without Origin (not a browser) gets none of this.
 */
import type { HttpRequestIn, HttpResponseOut } from './http-exchange.js';
import { headerText } from './http-rules.js';

/** What a page may send: the methods and request headers MCP uses over Streamable HTTP. */
const ALLOWED_METHODS = 'GET, POST, DELETE';
const ALLOWED_HEADERS = [
  'Content-Type',
  'Authorization',
  'MCP-Protocol-Version',
  'Mcp-Session-Id',
  'Mcp-Method',
  'Mcp-Name',
  'Last-Event-ID',
];
/** What a page may read of a response beyond the safelisted headers. */
const EXPOSED_HEADERS = 'Mcp-Session-Id, WWW-Authenticate, MCP-Protocol-Version';
/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = '600';
/** `Mcp-Param-<Name>` headers are named by each tool's `x-mcp-header`: allowed as asked for. */
const PARAM_HEADER = /^mcp-param-[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** On every response to an allowed cross-origin request, set before anything is written. */
export function allowOrigin(res: HttpResponseOut, origin: string): void {
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
  res.setHeader('vary', 'Origin');
}

/** The answer to a preflight `OPTIONS` from an allowed origin: no authorization is asked of it. */
export function answerPreflight(req: HttpRequestIn, res: HttpResponseOut, origin: string): void {
  const asked = headerText(req.headers, 'access-control-request-headers') ?? '';
  const params = asked
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => PARAM_HEADER.test(name));
  res
    .writeHead(204, {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': [...ALLOWED_HEADERS, ...new Set(params)].join(', '),
      'access-control-max-age': PREFLIGHT_MAX_AGE,
      vary: 'Origin, Access-Control-Request-Headers',
    })
    .end();
}
