/**
 * Whether a token's `aud` names this resource. An http(s) URL is compared after the RFC 3986
 * normalizations that cannot change which resource it names (6.2.2 and 6.2.3): scheme and host in
 * any case, the scheme's default port written or not, an empty path or `/`, `.`/`..` segments
 * resolved, percent-encodings in either hex case and unreserved characters encoded or not. Not
 * normalized: a trailing `/` after a non-empty path (`/mcp` and `/mcp/` are two resources), the
 * query, userinfo; a fragment never matches. Any other audience (`urn:…`, a plain name) must be
 * exactly the string expected.
 */

export type AudienceCheck = (aud: unknown) => boolean;

/** A check for `expected`; `aud` is a string or a list of them, as RFC 7519 allows. */
export function audienceCheck(expected: string): AudienceCheck {
  const canonical = canonicalUrl(expected);
  const names = (value: string): boolean =>
    value === expected || (canonical !== undefined && canonicalUrl(value) === canonical);
  return (aud) =>
    typeof aud === 'string'
      ? names(aud)
      : Array.isArray(aud) && aud.some((value) => typeof value === 'string' && names(value));
}

/** The normalized form of an http(s) URL; undefined for anything else. */
export function canonicalUrl(value: string): string | undefined {
  // The URL parser would also forgive spaces, tabs, newlines and `\` for `/`: RFC 3986 does not.
  if (!/^[!-[\]-~]+$/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.hash !== '' || value.includes('#')) return undefined;
  // URL has already lowered the scheme and host, dropped the default port, made an empty path `/`
  // and resolved dot segments; left are the percent-encodings of the path and query.
  return url.href.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return /^[A-Za-z0-9\-._~]$/.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}
