import { flatLine } from '../../printer/prettier-layout.js';

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

/** `name: (a, b) => R;` on one line, or its parameters one a line. */
export function signatureLayout(doc: string, name: string, params: readonly string[], returns: string): string | undefined {
  const body =
    lines(`  ${name}: (${params.join(', ')}) => ${returns};`) ?? lines(`  ${name}: (`, ...params.map((p) => `    ${p},`), `  ) => ${returns};`);
  return body === undefined ? undefined : doc + body;
}

/** `name: A & { member };` on one line, or the object type's member on a line of its own. */
export function intersectionLayout(doc: string, name: string, type: string, member: string): string | undefined {
  const body = lines(`  ${name}: ${type} & { ${member} };`) ?? lines(`  ${name}: ${type} & {`, `    ${member};`, '  };');
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

/** An object member `name: value,` on one line. */
export function propertyLayout(name: string, value: string): string | undefined {
  return lines(`  ${name}: ${value},`);
}
