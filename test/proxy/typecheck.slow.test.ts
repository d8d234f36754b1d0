// The generated project of a manifest with http bindings type-checks under the strict options, and a
// proxied tool's stub is one call of the generated proxy. Slow tier: a whole strict program.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { typeCheck } from '../server/support.js';
import { generate } from './harness.js';

const styles = join(import.meta.dirname, 'fixtures', 'styles.yaml');

test('a proxied tool\'s stub calls the generated proxy, and the project type-checks under strict', async () => {
  const dir = await generate(styles);
  expect(readFileSync(join(dir, 'handlers', 'tools', 'createIssue.ts'), 'utf8')).toContain(
    "export const createIssue: ToolHandlers['create_issue'] = (input, context) =>\n  proxy('create_issue', input, context);\n",
  );
  expect(typeCheck([dir])).toEqual([]);
});
