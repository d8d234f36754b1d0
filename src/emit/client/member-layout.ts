import { flatLine, quotedLine } from '../../printer/prettier-layout.js';

/**
 * The client's per-tool members (client-file.ts) in prettier's layout, without prettier, for the
 * shapes and widths they nearly always have: each function either returns the member's lines at
 * two spaces, exactly as prettier prints them, or undefined (then the unit goes to prettier).
 * Code is given unformatted (double-quoted strings); `doc` is a `jsdoc(…, '  ')` comment, which
 * prettier prints as it is. test/client/member-layout.test.ts holds them against prettier.
 */

/** Lines each through flatLine (prettier's quotes, within the width), joined; undefined if any fails. */
function lines(...code: string[]): string | undefined {
  const out: string[] = [];
  for (const line of code) {
    const flat = flatLine(line);
    if (flat === undefined) return undefined;
    out.push(flat);
  }
  return `${out.join('\n')}\n`;
}

/** As `lines`, the first line at any width: prettier has no place to break it. */
function wideFirstLine(first: string, ...rest: string[]): string | undefined {
  const head = quotedLine(first);
  const tail = lines(...rest);
  return head === undefined || tail === undefined ? undefined : `${head}\n${tail}`;
}

/** `name: (a, b) => R;` on one line, or its parameters one a line, and then a `Promise<X>` return's argument too. */
export function signatureLayout(doc: string, name: string, params: readonly string[], returns: string): string | undefined {
  const broken = [`  ${name}: (`, ...params.map((p) => `    ${p},`)];
  const promised = /^Promise<(.*)>$/.exec(returns)?.[1];
  const body =
    lines(`  ${name}: (${params.join(', ')}) => ${returns};`) ??
    lines(...broken, `  ) => ${returns};`) ??
    (promised === undefined ? undefined : lines(...broken, '  ) => Promise<', `    ${promised}`, '  >;'));
  return body === undefined ? undefined : doc + body;
}

/** `name: A & { member };` on one line, or the object type's member on a line of its own (the first line however wide). */
export function intersectionLayout(doc: string, name: string, type: string, member: string): string | undefined {
  const body = lines(`  ${name}: ${type} & { ${member} };`) ?? wideFirstLine(`  ${name}: ${type} & {`, `    ${member};`, '  };');
  return body === undefined ? undefined : doc + body;
}

/** An array element `[key, { … }],` on one line, its two items one a line, or the object's members one a line too. */
export function pairLayout(key: string, members: readonly string[]): string | undefined {
  const object = `{ ${members.join(', ')} }`;
  return (
    lines(`  [${key}, ${object}],`) ??
    lines('  [', `    ${key},`, `    ${object},`, '  ],') ??
    lines('  [', `    ${key},`, '    {', ...members.map((m) => `      ${m},`), '    },', '  ],')
  );
}

/** An object member `name: value,` on one line, or a call's one argument on a line of its own. */
export function propertyLayout(name: string, value: string): string | undefined {
  const call = /^([A-Za-z_$][\w$]*)\(("(?:[^"\\]|\\.)*")\)$/.exec(value);
  return lines(`  ${name}: ${value},`) ?? (call === null ? undefined : lines(`  ${name}: ${call[1]}(`, `    ${call[2]},`, '  ),'));
}
