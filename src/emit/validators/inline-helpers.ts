/**
 * ajv standalone output still reaches for ajv and ajv-formats at run time through `require(…)`.
 * Generated validators must import nothing, so each of those references is replaced by one of the
 * small helpers below, written for this project and emitted into the validator file itself.
 *
 * The helpers are kept as source text (not as functions serialized with `toString()`), so the
 * emitted bytes never depend on how this file was compiled.
 */
import { EXTRA_FORMAT_HELPERS, EXTRA_FORMATS, type FormatCheck, type FormatHelper } from '../../schema/formats.js';

import { ISSUE_HELPERS } from './compact-issues.js';
import { LINEAR_PATTERN_MODULE, LINEAR_PATTERN_NAME, LINEAR_PATTERN_SOURCE } from './linear-pattern.js';

type Helper = FormatHelper;

const HELPERS: readonly Helper[] = [
  { name: LINEAR_PATTERN_NAME, uses: [], code: LINEAR_PATTERN_SOURCE },
  {
    name: '$ucs2length',
    uses: [],
    // String length in code points: a surrogate pair counts once, as JSON Schema requires.
    code: String.raw`function $ucs2length(s) {
  let n = 0;
  for (let i = 0; i < s.length; n++) {
    const c = s.charCodeAt(i++);
    if (c >= 0xd800 && c <= 0xdbff && i < s.length && (s.charCodeAt(i) & 0xfc00) === 0xdc00) i++;
  }
  return n;
}`,
  },
  {
    name: '$deepEqual',
    uses: [],
    // Structural equality of JSON values, for const, enum and uniqueItems.
    code: String.raw`function $deepEqual(a, b) {
  if (a === b) return true;
  if (!a || !b || typeof a !== "object" || typeof b !== "object") return a !== a && b !== b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) {
    if (!Object.prototype.hasOwnProperty.call(b, k) || !$deepEqual(a[k], b[k])) return false;
  }
  return true;
}`,
  },
  {
    name: '$ValidationError',
    uses: [],
    // Thrown by validators of "$async" schemas.
    code: String.raw`class $ValidationError extends Error {
  constructor(errors) {
    super("validation failed");
    this.errors = errors;
    this.ajv = this.validation = true;
  }
}`,
  },
  {
    name: '$isDate',
    uses: [],
    // RFC 3339 full-date, with the real length of each month.
    code: String.raw`function $isDate(s) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const year = +m[1], month = +m[2], day = +m[3];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return month >= 1 && month <= 12 && day >= 1 && day <= days;
}`,
  },
  {
    name: '$isTime',
    uses: [],
    // RFC 3339 time; second 60 only where it can be a leap second (23:59 UTC).
    code: String.raw`function $isTime(s, zoneRequired) {
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))?$/.exec(s);
  if (!m) return false;
  if (zoneRequired && m[4] === undefined && m[5] === undefined) return false;
  const hour = +m[1], minute = +m[2], second = +m[3];
  const sign = m[5] === "-" ? -1 : 1, zoneHour = +(m[6] || 0), zoneMinute = +(m[7] || 0);
  if (hour > 23 || minute > 59 || second > 60 || zoneHour > 23 || zoneMinute > 59) return false;
  if (second < 60) return true;
  const utc = (((hour * 60 + minute - sign * (zoneHour * 60 + zoneMinute)) % 1440) + 1440) % 1440;
  return utc === 1439;
}`,
  },
  {
    name: '$formatDate',
    uses: ['$isDate'],
    code: String.raw`const $formatDate = { validate: $isDate };`,
  },
  {
    name: '$formatTime',
    uses: ['$isTime'],
    code: String.raw`const $formatTime = { validate: (s) => $isTime(s, true) };`,
  },
  {
    name: '$formatIsoTime',
    uses: ['$isTime'],
    code: String.raw`const $formatIsoTime = { validate: (s) => $isTime(s, false) };`,
  },
  {
    name: '$formatDateTime',
    uses: ['$isDate', '$isTime'],
    code: String.raw`const $formatDateTime = {
  validate: (s) => {
    const t = s.search(/[Tt]/);
    return t === 10 && $isDate(s.slice(0, t)) && $isTime(s.slice(t + 1), true);
  },
};`,
  },
  {
    name: '$formatIsoDateTime',
    uses: ['$isDate', '$isTime'],
    code: String.raw`const $formatIsoDateTime = {
  validate: (s) => {
    const t = s.search(/[Tt ]/);
    return t === 10 && $isDate(s.slice(0, t)) && $isTime(s.slice(t + 1), false);
  },
};`,
  },
  {
    name: '$isIPv6',
    uses: [],
    // Eight 16-bit groups, one "::" may stand for a run of zero groups, a dotted IPv4 may end it.
    code: String.raw`function $isIPv6(s) {
  let body = s;
  const lastColon = s.lastIndexOf(":");
  if (s.includes(".")) {
    const v4 = s.slice(lastColon + 1).split(".");
    if (lastColon < 0 || v4.length !== 4 || !v4.every((p) => /^(?:0|[1-9]\d{0,2})$/.test(p) && +p < 256)) return false;
    body = s.slice(0, lastColon + 1) + "0:0";
  }
  const halves = body.split("::");
  if (halves.length > 2) return false;
  const groups = halves.flatMap((h) => (h === "" ? [] : h.split(":")));
  if (!groups.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g))) return false;
  return halves.length === 2 ? groups.length <= 7 : groups.length === 8;
}`,
  },
  {
    name: '$formatUri',
    uses: ['$isIPv6'],
    // RFC 3986 "URI": scheme, then "//" authority and path, or a path; optional query and fragment.
    code: String.raw`const $formatUri = (() => {
  const pct = "%[0-9A-Fa-f]{2}";
  const pchar = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@]|" + pct + ")";
  const userinfo = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=:]|" + pct + ")*";
  const regName = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=]|" + pct + ")*";
  const authority = "(?:" + userinfo + "@)?(\\[[^\\]]*\\]|" + regName + ")(?::\\d*)?";
  const hierPart =
    "(?://" + authority + "(?:/" + pchar + "*)*" +
    "|/(?:" + pchar + "+(?:/" + pchar + "*)*)?" +
    "|" + pchar + "+(?:/" + pchar + "*)*" +
    "|)";
  const tail = "(?:\\?(?:" + pchar + "|[/?])*)?(?:#(?:" + pchar + "|[/?])*)?";
  const uri = new RegExp("^[A-Za-z][A-Za-z0-9+\\-.]*:" + hierPart + tail + "$");
  const ipFuture = /^v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/i;
  return (s) => {
    const m = uri.exec(s);
    if (!m) return false;
    const host = m[1];
    if (host === undefined || host[0] !== "[") return true;
    const literal = host.slice(1, -1);
    return $isIPv6(literal) || ipFuture.test(literal);
  };
})();`,
  },
  {
    name: '$formatByte',
    uses: [],
    // RFC 4648 base64 with padding; nothing else, not even line breaks.
    code: String.raw`const $formatByte = (s) => /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s);`,
  },
  {
    name: '$formatRegex',
    uses: [],
    // A pattern is valid when it compiles the way ajv compiles "pattern": as a Unicode RegExp.
    code: String.raw`const $formatRegex = (s) => {
  try {
    new RegExp(s, "u");
    return true;
  } catch {
    return false;
  }
};`,
  },
  {
    name: '$formatInt32',
    uses: [],
    code: String.raw`const $formatInt32 = { type: "number", validate: (n) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 };`,
  },
  {
    name: '$formatInt64',
    uses: [],
    // JSON numbers past 2^53 are not exact anyway; any integer passes.
    code: String.raw`const $formatInt64 = { type: "number", validate: (n) => Number.isInteger(n) };`,
  },
  {
    name: '$formatAnyNumber',
    uses: [],
    code: String.raw`const $formatAnyNumber = { type: "number", validate: () => true };`,
  },
];

/** Ours, the problem builders, then the checkers of the standard formats ajv-formats lacks (used by ours, so after them). */
const ALL_HELPERS: readonly Helper[] = [...HELPERS, ...ISSUE_HELPERS, ...EXTRA_FORMAT_HELPERS];
const BY_NAME = new Map(ALL_HELPERS.map((h) => [h.name, h]));

/** ajv-formats' "full" formats that are functions or objects (regex formats are inlined by ajv). */
const FORMAT_HELPERS: Readonly<Record<string, string>> = {
  date: '$formatDate',
  time: '$formatTime',
  'date-time': '$formatDateTime',
  'iso-time': '$formatIsoTime',
  'iso-date-time': '$formatIsoDateTime',
  uri: '$formatUri',
  byte: '$formatByte',
  regex: '$formatRegex',
  int32: '$formatInt32',
  int64: '$formatInt64',
  float: '$formatAnyNumber',
  double: '$formatAnyNumber',
  ...EXTRA_FORMATS,
};

/** Names of the format helpers standing in for ajv-formats' own, for tests that hold them against it. */
export const INLINE_FORMAT_NAMES: readonly string[] = Object.keys(FORMAT_HELPERS).filter((f) => !Object.hasOwn(EXTRA_FORMATS, f));

/** `require("module")` followed by `.prop` and `["prop"]` accesses, as ajv prints them. */
const REQUIRE_EXPRESSION = /require\(("(?:[^"\\]|\\.)*")\)((?:\.[A-Za-z_$][\w$]*|\["(?:[^"\\]|\\.)*"\])*)/g;

function accessPath(accessors: string): string[] {
  return [...accessors.matchAll(/\.([A-Za-z_$][\w$]*)|\[("(?:[^"\\]|\\.)*")\]/g)].map((m) =>
    m[1] !== undefined ? m[1] : (JSON.parse(m[2] as string) as string),
  );
}

function helperFor(module: string, path: readonly string[]): string | undefined {
  const [first, second, ...rest] = path;
  if (rest.length > 0) return undefined;
  if (module === LINEAR_PATTERN_MODULE && first === 'default' && second === undefined) return LINEAR_PATTERN_NAME;
  if (module === 'ajv/dist/runtime/ucs2length' && first === 'default' && second === undefined) return '$ucs2length';
  if (module === 'ajv/dist/runtime/equal' && first === 'default' && second === undefined) return '$deepEqual';
  if (module === 'ajv/dist/runtime/validation_error' && first === 'default' && second === undefined) {
    return '$ValidationError';
  }
  if (module === 'ajv-formats/dist/formats' && first === 'fullFormats' && second !== undefined) {
    return Object.prototype.hasOwnProperty.call(FORMAT_HELPERS, second) ? FORMAT_HELPERS[second] : undefined;
  }
  return undefined;
}

/**
 * Replaces every `require(…)` in ajv standalone output with a helper: the rewritten code and the
 * helpers it calls, for a module assembled from several compilations that declares each helper
 * once (helperCode writes them). Throws on a reference it does not know, so nothing that needs ajv
 * at run time slips out.
 */
export function replaceRuntimeDependencies(code: string): { code: string; needed: Set<string> } {
  const needed = new Set<string>();
  const rewritten = code.replace(REQUIRE_EXPRESSION, (whole, quotedModule: string, accessors: string) => {
    const helper = helperFor(JSON.parse(quotedModule) as string, accessPath(accessors));
    if (helper === undefined) throw new Error(`ajv output needs a run-time dependency mcp-gen cannot inline: ${whole}`);
    needed.add(helper);
    return helper;
  });
  // ajv prints calls as `require("…")`; inside string data that quote is always escaped.
  if (/\brequire\("/.test(rewritten)) throw new Error('ajv output still contains a require() call');
  return { code: rewritten, needed };
}

/** The code of `names` and everything they use, in the fixed order of HELPERS. */
export function helperCode(names: ReadonlySet<string>): string {
  const closure = new Set<string>();
  const visit = (name: string): void => {
    if (closure.has(name)) return;
    closure.add(name);
    const helper = BY_NAME.get(name);
    if (!helper) throw new Error(`unknown helper ${name}`);
    helper.uses.forEach(visit);
  };
  names.forEach(visit);
  return ALL_HELPERS.filter((h) => closure.has(h.name))
    .map((h) => `${h.code}\n`)
    .join('');
}

let inProcess: Record<string, FormatCheck> | undefined;

/**
 * The checkers of the formats ajv-formats lacks, as functions made from the very text that is
 * emitted (our own constant source, never input), for in-process ajv: the two cannot disagree.
 */
export function inProcessFormats(): Readonly<Record<string, FormatCheck>> {
  if (inProcess) return inProcess;
  const entries = Object.entries(EXTRA_FORMATS).map(([format, helper]) => `${JSON.stringify(format)}: ${helper}`);
  const body = `${helperCode(new Set(Object.values(EXTRA_FORMATS)))}return { ${entries.join(', ')} };`;
  inProcess = new Function(body)() as Record<string, FormatCheck>;
  return inProcess;
}
