/**
 * The templates of the user-owned skeletons can only print values through the escaping helpers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { describe, expect, it } from 'vitest';
import { render, TEMPLATE_DIR, VALUE_HELPERS } from '../../src/emit/server/templates.js';

const templateFiles = readdirSync(fileURLToPath(TEMPLATE_DIR)).filter((f) => f.endsWith('.hbs')).sort();
const source = (file: string): string => readFileSync(new URL(file, TEMPLATE_DIR), 'utf8');

/** Every `{{…}}` of a template, with what it is. */
function mustaches(text: string): { kind: string; helper: string; params: number; raw: boolean }[] {
  const found: { kind: string; helper: string; params: number; raw: boolean }[] = [];
  const visit = (node: hbs.AST.Node | undefined): void => {
    if (!node) return;
    switch (node.type) {
      case 'Program':
        (node as hbs.AST.Program).body.forEach(visit);
        break;
      case 'MustacheStatement': {
        const m = node as hbs.AST.MustacheStatement;
        found.push({ kind: 'mustache', helper: (m.path as hbs.AST.PathExpression).original, params: m.params.length, raw: !m.escaped });
        break;
      }
      case 'BlockStatement': {
        const b = node as hbs.AST.BlockStatement;
        found.push({ kind: 'block', helper: (b.path as hbs.AST.PathExpression).original, params: b.params.length, raw: false });
        visit(b.program);
        visit(b.inverse);
        break;
      }
      case 'PartialStatement':
        found.push({ kind: 'partial', helper: '', params: 0, raw: false });
        break;
      case 'ContentStatement':
      case 'CommentStatement':
        break;
      default:
        found.push({ kind: node.type, helper: '', params: 0, raw: false });
    }
  };
  visit(Handlebars.parse(text));
  return found;
}

describe('templates', () => {
  it('exist', () => {
    expect(templateFiles).toEqual(expect.arrayContaining(['tool-handler.ts.hbs', 'handlers-index.ts.hbs', 'main.ts.hbs']));
  });

  for (const file of templateFiles) {
    it(`${file} prints values only through helpers`, () => {
      const text = source(file);
      expect(text).not.toContain('{{{');
      expect(text).not.toContain('{{&');
      for (const m of mustaches(text)) {
        if (m.kind === 'mustache') {
          expect(Object.keys(VALUE_HELPERS), `{{${m.helper} …}} in ${file}`).toContain(m.helper);
          expect(m.params, `{{${m.helper}}} in ${file} has no argument`).toBe(1);
          expect(m.raw).toBe(false);
        } else if (m.kind === 'block') {
          expect(['each', 'if', 'unless'], `{{#${m.helper}}} in ${file}`).toContain(m.helper);
        } else {
          expect(m.kind, `unexpected ${m.kind} in ${file}`).toBe('partial');
        }
      }
    });
  }

  it('the check above catches a bare value and a triple stash', () => {
    expect(mustaches('{{name}}')).toEqual([{ kind: 'mustache', helper: 'name', params: 0, raw: false }]);
    expect(mustaches('{{{name}}}')[0]?.raw).toBe(true);
  });

  it('refuse values that are not safe for their position', () => {
    const tool = { doc: '', camel: 'class', name: 'x', message: 'm' };
    expect(() => render('tool-handler.ts.hbs', tool)).toThrow(/not a safe identifier/);
    expect(() => render('tool-handler.ts.hbs', { doc: '', camel: 'ok', name: 'x' })).toThrow(/ts-quote needs a string/);
  });

  it('escape what they print', () => {
    const text = render('tool-handler.ts.hbs', {
      doc: 'a */ export const pwn = 1; /* b\u2028c',
      camel: 'getUser',
      name: `it's "q" \\ \${x}\u2028`,
      message: '*/`${x}`',
    });
    expect(text).toContain('/**\n * a *\\/ export const pwn = 1; /* b\n * c\n */\nexport const getUser');
    expect(text).toContain(`ToolHandlers["it's \\"q\\" \\\\ \${x}\\u2028"]`);
    expect(text).toContain("text: '*/`${x}`'");
    expect(text).not.toMatch(/[\u2028\u2029]/);
  });
});
