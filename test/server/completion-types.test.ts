/**
 * Completion handlers typed per prompt argument and template variable (issue 14 item 5), checked
 * with a virtual file in the committed weather example, and the manifest's enums carried into the
 * definition as default completions.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { definition } from '../../examples/weather/server/generated/server.js';
import { repoRoot, typeCheck } from './support.js';

const weatherHandlers = join(repoRoot, 'examples', 'weather', 'server', 'handlers');

function check(body: string): string[] {
  return typeCheck([], { [join(weatherHandlers, 'completion-type-test.ts')]: body });
}

describe('completion handler types', { timeout: 180_000 }, () => {
  it('type each handler by its prompt arguments or template variables', () => {
    expect(
      check(`import type { CompletionHandlers, Handlers } from '../generated/types.js';
export const location: CompletionHandlers['plan_outing']['location'] = (typed, resolved) => [typed + (resolved.activity ?? '')];
export const station: CompletionHandlers['weather://stations/{id}']['id'] = async (typed, resolved) => ({ values: [typed, resolved.id ?? ''], hasMore: false });
export const completions: Handlers['completions'] = { plan_outing: { location } };
`),
    ).toEqual([]);
  });

  it('refuse an argument the prompt does not have, and a resolved argument it does not have', () => {
    const unknownArgument = check(`import type { Handlers } from '../generated/types.js';
export const completions: Handlers['completions'] = { plan_outing: { weather: () => [] } };
`);
    expect(unknownArgument.join('\n')).toMatch(/TS2353[\s\S]*'weather' does not exist/);
    const unknownResolved = check(`import type { CompletionHandlers } from '../generated/types.js';
export const location: CompletionHandlers['plan_outing']['location'] = (_typed, resolved) => [resolved.city ?? ''];
`);
    expect(unknownResolved.join('\n')).toMatch(/TS2339[\s\S]*Property 'city' does not exist/);
  });
});

describe('manifest enums as default completions', () => {
  it('reach the definition by prompt argument and template variable, and stay off the wire lists', () => {
    expect(definition.completionDefaults).toEqual({
      prompts: { plan_outing: { activity: ['hiking', 'cycling', 'picnic', 'sailing'] } },
      resourceTemplates: { 'weather://stations/{id}': { id: ['lis', 'osl', 'sgp'] } },
    });
    expect(JSON.stringify(definition.prompts)).not.toContain('sailing');
    expect(JSON.stringify(definition.resourceTemplates)).not.toContain('variables');
  });
});
