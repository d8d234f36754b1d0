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

/** `name: (a, b) => R;` on one line, or its parameters one a line, and then a `Promise<X>` return's argument too. */
export function signatureLayout(doc: string, name: string, params: readonly string[], returns: string): string | undefined {
  const broken = [`  ${name}: (`, ...params.map((p) => `    ${p},`)];
  const promised = /^Promise<(.*)>$/.exec(returns)?.[1];
  // `Promise<FullResult<X>>`: when `FullResult<X>` is too wide for its line, its argument goes on one of its own too.
  const full = promised === undefined ? undefined : /^FullResult<(.*)>$/.exec(promised)?.[1];
  const body =
    lines(`  ${name}: (${params.join(', ')}) => ${returns};`) ??
    lines(...broken, `  ) => ${returns};`) ??
    (promised === undefined ? undefined : lines(...broken, '  ) => Promise<', `    ${promised}`, '  >;')) ??
    (full === undefined ? undefined : lines(...broken, '  ) => Promise<', '    FullResult<', `      ${full}`, '    >', '  >;'));
  return body === undefined ? undefined : doc + body;
}

/**
 * `name: A & { member };` on one line, or the object type's member on a line of its own (the first
 * line however wide, and the member's too when it is `key: Type`, which has no place to break either).
 */
export function intersectionLayout(doc: string, name: string, type: string, member: string): string | undefined {
  const unbreakable = /^(?:readonly )?[A-Za-z_$][\w$]*\??: [A-Za-z_$][\w$.]*\["(?:[^"\\]|\\.)*"\]$/.test(member);
  const memberLine = unbreakable ? quotedLine(`    ${member};`) : flatLine(`    ${member};`);
  const head = quotedLine(`  ${name}: ${type} & {`);
  const body = lines(`  ${name}: ${type} & { ${member} };`) ?? (head === undefined || memberLine === undefined ? undefined : `${head}\n${memberLine}\n  };\n`);
  return body === undefined ? undefined : doc + body;
}

/** An array element `[key, { … }],` on one line, its two items one a line, or the object's members one a line too. */
export function pairLayout(key: string, members: readonly string[]): string | undefined {
  const object = `{ ${members.join(', ')} }`;
  return (
    lines(`  [${key}, ${object}],`) ??
    lines('  [', `    ${key},`, `    ${object},`, '  ],') ??
    lines('  [', `    ${key},`, '    {', ...members.flatMap(brokenMember), '    },', '  ],')
  );
}

/**
 * A member of the element's object, one a line: `key: value,`, or, too wide, the value on the next
 * line when it is a string or a chain of property accesses and the key is not short (prettier
 * breaks after the colon there).
 */
function brokenMember(member: string): string[] {
  const line = `      ${member},`;
  if (flatLine(line) !== undefined) return [line];
  const match = /^([A-Za-z_$][\w$]*): ((?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*|"(?:[^"\\]|\\.)*")$/.exec(member);
  // A key shorter than five characters prettier keeps beside its value.
  return match === null || (match[1] as string).length < 5 ? [line] : [`      ${match[1]}:`, `        ${match[2]},`];
}

/** An object member `name: value,` on one line, or a call's one argument on a line of its own. */
export function propertyLayout(name: string, value: string): string | undefined {
  const call = /^([A-Za-z_$][\w$]*)\(("(?:[^"\\]|\\.)*")\)$/.exec(value);
  return lines(`  ${name}: ${value},`) ?? (call === null ? undefined : lines(`  ${name}: ${call[1]}(`, `    ${call[2]},`, '  ),'));
}
