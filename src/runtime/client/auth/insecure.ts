/**
 * Plain `http://` is allowed only on this machine (localhost, 127.0.0.1, ::1): oauth4webapi is told
 * so per request, and any other `http://` endpoint is refused before anything is sent.
 */
import * as oauth from 'oauth4webapi';
import { AuthorizationError } from './errors.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLoopback(url: URL): boolean {
  return LOOPBACK.has(url.hostname);
}

/** oauth4webapi's options for a request to `url`: `allowInsecureRequests` for loopback http only. */
export function httpOptions(url: URL | string | undefined): {
  [oauth.allowInsecureRequests]?: true;
} {
  if (url === undefined) return {};
  const parsed = new URL(url);
  if (parsed.protocol === 'https:') return {};
  if (parsed.protocol === 'http:' && isLoopback(parsed))
    return { [oauth.allowInsecureRequests]: true };
  throw new AuthorizationError(
    `refusing ${parsed.href}: authorization endpoints must use https (plain http only on localhost)`,
  );
}
