/**
 * Reading the top-level members of a JSON object without parsing it: the id of a message refused
 * as too large or too deep (so the refusal can carry it), and where a result's `_meta` sits.
 *
 * One forward pass with a bracket counter, never recursion, so a million nested arrays cost a
 * million steps and no stack. Anything unexpected ends the scan with no answer: these are best
 * efforts on text that is not parsed, never a second JSON parser.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(text: string, i: number, end: number): number {
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The index after the string whose opening quote is at `start`; -1 when it does not close before `end`. */
function skipString(text: string, start: number, end: number): number {
  let from = start + 1;
  for (;;) {
    const close = text.indexOf('"', from);
    if (close === -1 || close >= end) return -1;
    // The quote closes the string unless an odd run of backslashes escapes it.
    let slashes = 0;
    while (text.charCodeAt(close - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return close + 1;
    from = close + 1;
  }
}

/** The index after the value starting at `start`; -1 when it does not end before `end` or is malformed. */
export function skipValue(text: string, start: number, end: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return skipString(text, start, end);
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        i = skipString(text, i, end);
        if (i === -1) return -1;
        i--;
      } else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        if (--depth === 0) return i + 1;
      }
    }
    return -1;
  }
  // A number or a literal: up to the next delimiter.
  let i = start;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 0x2c || c === 0x7d || c === 0x5d || isSpace(c)) break;
    i++;
  }
  return i === start || i === end ? -1 : i;
}

/** Calls `visit` with each member of the object opening at `open`; stops when it returns false. */
function eachMember(
  text: string,
  open: number,
  end: number,
  visit: (key: string | undefined, valueStart: number, valueEnd: number) => boolean,
): 'done' | 'stopped' | 'unknown' {
  if (text.charCodeAt(open) !== 0x7b) return 'unknown';
  let i = skipSpace(text, open + 1, end);
  if (text.charCodeAt(i) === 0x7d) return 'done';
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return 'unknown';
    const keyEnd = skipString(text, i, end);
    if (keyEnd === -1) return 'unknown';
    // Keys are compared decoded, but only short ones can be a key of interest.
    const key = keyEnd - i <= 40 ? decodeKey(text.slice(i, keyEnd)) : undefined;
    i = skipSpace(text, keyEnd, end);
    if (text.charCodeAt(i) !== 0x3a) return 'unknown';
    const valueStart = skipSpace(text, i + 1, end);
    if (valueStart >= end) return 'unknown';
    const valueEnd = skipValue(text, valueStart, end);
    if (!visit(key, valueStart, valueEnd)) return 'stopped';
    if (valueEnd === -1) return 'unknown';
    i = skipSpace(text, valueEnd, end);
    const c = text.charCodeAt(i);
    if (c === 0x7d) return 'done';
    if (c !== 0x2c) return 'unknown';
    i = skipSpace(text, i + 1, end);
  }
}

function decodeKey(quoted: string): string | undefined {
  if (!quoted.includes('\\')) return quoted.slice(1, -1);
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return undefined;
  }
}

const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

/**
 * The id of the request whose JSON text begins `text` (which may be cut short), as JSON text ready
 * for a response, from at most the first `limit` characters. Undefined when it cannot be told: no
 * `id` or no `method` member within reach (so the answer to a client's response never borrows the
 * id of one of the client's own requests), an id that is not a string or a safe integer, or
 * anything that is not a JSON object.
 */
export function scanRequestId(text: string, limit: number): string | undefined {
  const end = Math.min(text.length, limit);
  const open = skipSpace(text, 0, end);
  let idText: string | undefined;
  let isRequest = false;
  let answered = false;
  const outcome = eachMember(text, open, end, (key, valueStart, valueEnd) => {
    if (key === 'result' || key === 'error') {
      isRequest = false;
      idText = undefined;
      return false;
    }
    if (key === 'method') isRequest = text.charCodeAt(valueStart) === QUOTE;
    else if (key === 'id')
      idText = valueEnd === -1 ? undefined : idValue(text.slice(valueStart, valueEnd));
    answered = isRequest && idText !== undefined;
    return !answered;
  });
  return outcome === 'stopped' && answered
    ? idText
    : outcome === 'done' && isRequest
      ? idText
      : undefined;
}

function idValue(json: string): string | undefined {
  if (json.charCodeAt(0) === QUOTE) {
    try {
      return JSON.stringify(JSON.parse(json) as string);
    } catch {
      return undefined;
    }
  }
  return INTEGER.test(json) && Number.isSafeInteger(Number(json)) ? json : undefined;
}

/**
 * Where the value of the member `key` of the object opening at `open` begins, or -1 when the object
 * has no such member; undefined when the text is not what it should be. For JSON the runtime wrote
 * itself (a result message), so no limit applies.
 */
export function memberStart(text: string, open: number, key: string): number | undefined {
  let found = -1;
  const outcome = eachMember(text, open, text.length, (name, valueStart) => {
    if (name !== key) return true;
    found = valueStart;
    return false;
  });
  return outcome === 'unknown' ? undefined : found;
}
