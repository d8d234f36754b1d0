/**
 * `WWW-Authenticate` as the MCP endpoint sends it (RFC 9110 §11.6.1): the `Bearer` (or `DPoP`)
 * challenge's parameters, of which the flow reads `resource_metadata`, `scope` and `error`.
 */
export interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

/** Every challenge in the header, parameters keyed in lower case; quoted values unescaped. */
export function parseChallenges(header: string | undefined): Challenge[] {
  if (header === undefined) return [];
  const challenges: Challenge[] = [];
  // scheme, then `name=value` pairs (value a token or a quoted string), comma separated.
  const pattern =
    /\s*,?\s*([!#$%&'*+.^_`|~\w-]+)(?:\s*=\s*("(?:[^"\\]|\\.)*"|[^\s,]*)|(?=\s|,|$))/gy;
  let current: Challenge | undefined;
  let match: RegExpExecArray | null;
  while (pattern.lastIndex < header.length && (match = pattern.exec(header)) !== null) {
    const [, name, raw] = match as unknown as [string, string, string | undefined];
    if (raw === undefined) {
      // A token not followed by `=` starts a new challenge (a token68 value is kept as-is).
      current = { scheme: name, params: {} };
      challenges.push(current);
    } else if (current !== undefined) {
      current.params[name.toLowerCase()] = raw.startsWith('"')
        ? raw.slice(1, -1).replace(/\\(.)/g, '$1')
        : raw;
    }
    if (match[0] === '') break;
  }
  return challenges;
}

/** The parameters of the first Bearer or DPoP challenge (the MCP endpoint's own). */
export function bearerParams(header: string | undefined): Record<string, string> {
  const found = parseChallenges(header).find((c) => /^(bearer|dpop)$/i.test(c.scheme));
  return found?.params ?? {};
}
