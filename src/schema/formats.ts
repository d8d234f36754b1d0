/**
 * The JSON Schema 2020-12 (and draft-07) formats ajv-formats does not implement: `iri`,
 * `iri-reference`, `idn-email`, `idn-hostname`. They are standard, so they are validated, by the
 * small checkers below, written for this project. Each is kept as source text, because the same
 * text is both emitted into generated validators (src/emit/validators/inline-helpers.ts) and, via
 * `new Function` over that constant text (never input), run in-process by the ajv the differential
 * tests hold the generated validators against.
 *
 * - `idn-hostname` (RFC 5890/5891, simplified): labels of letters, marks, digits and `-`, split at
 *   `.` or the ideographic full stops, each 1–63 code points, no leading mark or hyphen, no trailing
 *   hyphen, `--` in positions 3–4 only for `xn--`; at most 253 code points; one trailing dot allowed.
 * - `idn-email` (RFC 6531): a dot-atom or quoted local part that may hold non-ASCII text, `@`, and
 *   an idn-hostname or an address literal in brackets.
 * - `iri`/`iri-reference` (RFC 3987): every `ucschar` (and `iprivate` in the query) stands for a
 *   percent-escape, then the URI rules apply; bidi formatting characters are refused (§4.1).
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';

export interface FormatHelper {
  /** Top-level binding the helper's code declares; `$`-prefixed so it cannot meet ajv's names. */
  name: string;
  /** Helpers whose bindings this one uses (from this file or inline-helpers.ts). */
  uses: readonly string[];
  code: string;
}

/** RFC 3986 URI-reference, as ajv-formats has it: the basis of `iri-reference`. */
const uriReference = fullFormats['uri-reference'] as RegExp;

export const EXTRA_FORMAT_HELPERS: readonly FormatHelper[] = [
  {
    name: '$iriToUri',
    uses: [],
    // Non-ASCII code points allowed in an IRI become "%41"; null when one is not allowed there.
    code: String.raw`function $iriToUri(s) {
  const query = s.indexOf("?"), hash = s.indexOf("#");
  let out = "", i = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0);
    const at = i;
    i += ch.length;
    if (c < 0x80) { out += ch; continue; }
    const ucschar = (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xf900 && c <= 0xfdcf) || (c >= 0xfdf0 && c <= 0xffef) ||
      (c >= 0x10000 && c <= 0xdffff && (c & 0xffff) <= 0xfffd) || (c >= 0xe1000 && c <= 0xefffd);
    const bidi = c === 0x200e || c === 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
    const inQuery = query !== -1 && at > query && (hash === -1 || at < hash);
    const iprivate = (c >= 0xe000 && c <= 0xf8ff) || (c >= 0xf0000 && c <= 0xffffd) || (c >= 0x100000 && c <= 0x10fffd);
    if (bidi || !(ucschar || (inQuery && iprivate))) return null;
    out += "%41";
  }
  return out;
}`,
  },
  {
    name: '$formatIri',
    uses: ['$iriToUri', '$formatUri'],
    code: String.raw`const $formatIri = (s) => { const u = $iriToUri(s); return u !== null && $formatUri(u); };`,
  },
  {
    name: '$formatIriReference',
    uses: ['$iriToUri'],
    code: `const $formatIriReference = (() => {
  const ref = new RegExp(${JSON.stringify(uriReference.source)}, ${JSON.stringify(uriReference.flags)});
  return (s) => { const u = $iriToUri(s); return u !== null && ref.test(u); };
})();`,
  },
  {
    name: '$formatIdnHostname',
    uses: [],
    code: String.raw`const $formatIdnHostname = (s) => {
  if ([...s].length > 254) return false;
  const labels = s.split(/[.\u3002\uff0e\uff61]/);
  if (labels.length > 1 && labels[labels.length - 1] === "") labels.pop();
  if ([...labels.join(".")].length > 253) return false;
  return labels.every((label) => {
    const n = [...label].length;
    if (n < 1 || n > 63) return false;
    if (!/^[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}-]*[\p{L}\p{M}\p{N}])?$/u.test(label)) return false;
    return label.slice(2, 4) !== "--" || /^xn--/i.test(label);
  });
};`,
  },
  {
    name: '$formatIdnEmail',
    uses: ['$formatIdnHostname', '$isIPv6'],
    code: String.raw`const $formatIdnEmail = (() => {
  const atom = "[A-Za-z0-9!#$%&'*+/=?^_\x60{|}~\\-\\u00a0-\\u{10ffff}]+";
  const local = new RegExp("^(?:" + atom + "(?:\\." + atom + ")*|\"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e\\u00a0-\\u{10ffff}]|\\\\[\\x20-\\x7e])*\")$", "u");
  const ipv4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
  return (s) => {
    const at = s.lastIndexOf("@");
    if (at < 1) return false;
    const domain = s.slice(at + 1);
    if (!local.test(s.slice(0, at))) return false;
    if (domain.startsWith("[") && domain.endsWith("]")) {
      const literal = domain.slice(1, -1);
      return ipv4.test(literal) || (/^IPv6:/i.test(literal) && $isIPv6(literal.slice(5)));
    }
    return $formatIdnHostname(domain);
  };
})();`,
  },
];

/** Format name → the helper that checks it. */
export const EXTRA_FORMATS: Readonly<Record<string, string>> = {
  iri: '$formatIri',
  'iri-reference': '$formatIriReference',
  'idn-email': '$formatIdnEmail',
  'idn-hostname': '$formatIdnHostname',
};

export type FormatCheck = (s: string) => boolean;
