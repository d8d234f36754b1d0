/**
 * A tool shown in a view returns `structuredContent` for the view and `content` (text) for the
 * model: its generated handler type refuses a result without `content`, and one whose structured
 * part breaks the outputSchema. Virtual files in the `views` golden (nothing is written).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runtimeSources, typeCheck } from '../server/support.js';

const golden = join(repoRoot, 'test', 'golden', 'server', 'views');
const tools = join(golden, 'handlers', 'tools');
/** Goldens leave the runtime out; its API module and the type modules it re-exports are all the types need. */
const runtimeApi = Object.fromEntries(
  ['api.ts', 'protocol/content-types.ts', 'protocol/definition-types.ts', 'protocol/input-types.ts', 'protocol/list-types.ts', 'protocol/task-types.ts', 'protocol/server-options.ts'].map((name) => [
    join(golden, 'generated', 'runtime', name),
    runtimeSources()[name] as string,
  ]),
);

const handler = (tool: string, result: string): string[] =>
  typeCheck([], {
    [join(tools, 'type-test.ts')]: `import type { ToolHandlers } from '../../generated/types.js';
export const handler: ToolHandlers['${tool}'] = async () => ${result};
`,
    ...runtimeApi,
  });

const text = `content: [{ type: 'text', text: 'Oslo: 20 °C' }]`;

describe('view tool handler types', { timeout: 180_000 }, () => {
  it('accept structuredContent with content, and a tool error', () => {
    expect(handler('show_forecast', `({ structuredContent: { city: 'Oslo', temperatures: [20] }, ${text} })`)).toEqual([]);
    expect(handler('refresh_forecast', `({ isError: true, ${text} })`)).toEqual([]);
  });

  it('refuse a view result without content for the model', () => {
    const errors = handler('show_forecast', `({ structuredContent: { city: 'Oslo', temperatures: [20] } })`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/TS2322[\s\S]*Property 'content' is missing/);
  });

  it('refuse structuredContent that breaks the outputSchema', () => {
    const errors = handler('refresh_forecast', `({ structuredContent: { temperature: 'warm' }, ${text} })`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/TS2322[\s\S]*'string' is not assignable to type 'number'/);
  });

  it('leave a tool without a view as before: content optional', () => {
    expect(handler('get_time', `({ ${text} })`)).toEqual([]);
  });
});
