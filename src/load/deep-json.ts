/**
 * Parsed JSON from an untrusted server can nest as deep as its text allows: JSON.parse copes, but
 * every recursive walk after it (JSON.stringify included) overflows the stack somewhere around ten
 * thousand levels. These helpers keep their own stacks, so any depth is measured and printed safely.
 */

/**
 * How deep mcp-gen follows a server's JSON: nesting of objects and arrays, counted from the value
 * given (a schema `{ "properties": { "a": {…} } }` uses two levels per property). Every walk after
 * the check (types, validators, printing) is recursive, and stays well within the stack below this.
 */
export const MAX_JSON_DEPTH = 256;

/** The nesting depth of a JSON value: 0 for a scalar, 1 for `{}` or `[1]`, 2 for `{"a":[]}`, … */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, level]);
    }
  }
  return deepest;
}

/**
 * The same text as `JSON.stringify(value, null, 2)` for parsed JSON (plain objects, arrays,
 * strings, finite numbers, booleans, null; undefined members left out), at any depth. Past
 * MAX_JSON_DEPTH levels the rest is written compactly: indentation would make the text grow with
 * the square of the depth (ten thousand levels would take hundreds of megabytes).
 */
export function jsonText(value: unknown): string {
  const out: string[] = [];
  // Work items: a value to write at an indent, or literal text (closing brackets, separators).
  const work: ({ value: unknown; indent: string } | string)[] = [{ value, indent: '' }];
  while (work.length > 0) {
    const item = work.pop() as (typeof work)[number];
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const { value: node, indent } = item;
    if (typeof node !== 'object' || node === null) {
      out.push(JSON.stringify(node) ?? 'null');
      continue;
    }
    const compact = indent.length >= 2 * MAX_JSON_DEPTH;
    const inner = compact ? indent : `${indent}  `;
    const newline = compact ? '' : '\n';
    const members: [string | undefined, unknown][] = Array.isArray(node)
      ? node.map((v) => [undefined, v === undefined ? null : v])
      : Object.entries(node).filter(([, v]) => v !== undefined);
    const [open, close] = Array.isArray(node) ? ['[', ']'] : ['{', '}'];
    if (members.length === 0) {
      out.push(open + close);
      continue;
    }
    out.push(open);
    const pending: (typeof work)[number][] = [];
    members.forEach(([key, v], i) => {
      const name = key === undefined ? '' : `${JSON.stringify(key)}:${compact ? '' : ' '}`;
      pending.push(`${i === 0 ? '' : ','}${newline}${compact ? '' : inner}${name}`);
      pending.push({ value: v, indent: inner });
    });
    pending.push(`${newline}${compact ? '' : indent}${close}`);
    for (let i = pending.length - 1; i >= 0; i--) work.push(pending[i] as (typeof work)[number]);
  }
  return out.join('');
}
