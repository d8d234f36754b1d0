/**
 * The client's per-tool members printed directly (member-layout.ts) are what prettier prints
 * (formatMembers without `laidOut`), at every width around their line breaks, and the direct path
 * takes the ordinary ones.
 */
import { describe, expect, it } from 'vitest';
import { intersectionLayout, pairLayout, propertyLayout, signatureLayout } from '../../src/emit/client/member-layout.js';
import { jsdoc, stringLiteral } from '../../src/printer/escape.js';
import { formatMembers, type MemberKind } from '../../src/printer/format.js';
import { propertyKey } from '../../src/printer/names.js';

/** prettier's members for `code` in a container of `kind`, through the production path. */
async function prettierMembers(kind: MemberKind, code: string): Promise<string> {
  return (await formatMembers([{ name: 'x', kind, code }], undefined)).get('x') as string;
}

const NAMES = [1, 3, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 60, 70, 90].flatMap((n) => {
  const base = `t${'o'.repeat(n - 1)}`;
  return [base, `${base}-x`, `${base}'s`];
});
const DOCS = ['', jsdoc('`tool`\n\nDoes a thing. Caf\u00e9 \u2014 with "quotes" and \'apostrophes\'.\n  indented line', '  '), jsdoc('one line', '  ')];

describe('client member layouts', () => {
  it("signatures: prettier's bytes wherever taken, taken for ordinary names", async () => {
    let taken = 0;
    let total = 0;
    for (const name of NAMES) {
      const key = stringLiteral(name);
      for (const [returns, options] of [
        ['Promise<P.CallToolResult>', 'CallOptions'],
        [`Promise<FullResult<T.Tools[${key}]["output"]>>`, 'CallOptions'],
        [`Promise<TaskHandle<T.Tools[${key}]["output"]>>`, 'TaskOptions'],
      ] as const) {
        for (const doc of DOCS) {
          const params = [`input?: T.Tools[${key}]["input"]`, `options?: ${options}`];
          const code = `${doc}  ${propertyKey(name)}: (${params.join(', ')}) => ${returns};\n`;
          const direct = signatureLayout(doc, propertyKey(name), params, returns);
          total++;
          if (direct === undefined) continue;
          taken++;
          expect(direct, code).toBe(await prettierMembers('interface', code));
        }
      }
    }
    // Long names too (GitHub's): their parameters and then the Promise's argument broken.
    expect(taken).toBeGreaterThan(total * 0.85);
  });

  it("method intersections, table rows and entries: prettier's bytes wherever taken", async () => {
    let taken = 0;
    for (const name of NAMES) {
      const key = stringLiteral(name);
      const camel = name.replace(/[^A-Za-z0-9]/g, '');
      for (const doc of DOCS) {
        const member = intersectionLayout(doc, `readonly ${camel}`, `ToolCalls[${key}]`, `readonly full: FullToolCalls[${key}]`);
        const code = `${doc}  readonly ${camel}: ToolCalls[${key}] & { readonly full: FullToolCalls[${key}] };\n`;
        if (member !== undefined) {
          taken++;
          expect(member, code).toBe(await prettierMembers('interface', code));
        } else if (name.length <= 30) {
          expect.fail(`a method of a ${name.length}-character name was declined: ${code}`);
        }
      }
      for (const members of [[`name: ${key}`], [`name: ${key}`, `validateOutput: outputValidators.validate${camel}Output`]]) {
        const row = pairLayout(key, members);
        const code = `  [${key}, { ${members.join(', ')} }],\n`;
        if (row !== undefined) {
          taken++;
          expect(row, code).toBe(await prettierMembers('array', code));
        } else if (name.length <= 40) {
          expect.fail(`a row of a ${name.length}-character name was declined: ${code}`);
        }
      }
      const entry = propertyLayout(camel, `tool(${key})`);
      if (entry !== undefined) {
        taken++;
        expect(entry).toBe(await prettierMembers('object', `  ${camel}: tool(${key}),\n`));
      }
    }
    // Long names too: an intersection's first line past the width, an entry's call argument on its own line.
    expect(taken).toBeGreaterThan(NAMES.length * 5);
  });

  it("GitHub's longest tool names (up to 64 characters) are laid out directly, in prettier's bytes", async () => {
    const long = [
      'copilot_remove-organizations-from-enterprise-coding-agent-policy',
      'actions_get-fork-pr-contributor-approval-permissions-organizatio',
      'actions_set-private-repo-fork-pr-workflows-settings-organization',
      'apps_list-installation-requests-for-authenticated-app',
    ];
    for (const name of long) {
      const key = stringLiteral(name);
      const camel = name.replace(/[^A-Za-z0-9]+(.)/g, (_all, c: string) => c.toUpperCase());
      const params = [`input: T.Tools[${key}]["input"]`, 'options?: CallOptions'];
      const returns = `Promise<FullResult<T.Tools[${key}]["output"]>>`;
      const cases: [MemberKind, string, string | undefined][] = [
        ['interface', `  ${propertyKey(name)}: (${params.join(', ')}) => ${returns};
`, signatureLayout('', propertyKey(name), params, returns)],
        [
          'interface',
          `  readonly ${camel}: ToolCalls[${key}] & { readonly full: FullToolCalls[${key}] };\n`,
          intersectionLayout('', `readonly ${camel}`, `ToolCalls[${key}]`, `readonly full: FullToolCalls[${key}]`),
        ],
        [
          'array',
          `  [${key}, { name: ${key}, validateOutput: outputValidators.validate${camel}Output }],\n`,
          pairLayout(key, [`name: ${key}`, `validateOutput: outputValidators.validate${camel}Output`]),
        ],
      ];
      for (const [kind, code, direct] of cases) {
        expect(direct, code).toBeDefined();
        expect(direct, code).toBe(await prettierMembers(kind, code));
      }
    }
  });
});
