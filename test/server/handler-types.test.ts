/**
 * The generated types are what keeps user code honest: a handler whose structured result does not
 * match the tool's outputSchema must not compile. Checked with virtual files placed in the
 * committed weather example and the no-output golden (nothing is written to disk).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runtimeSources, typeCheck } from './support.js';

const weatherTools = join(repoRoot, 'examples', 'weather', 'server', 'handlers', 'tools');
const notesGolden = join(repoRoot, 'test', 'golden', 'server', 'no-output');
const notesTools = join(notesGolden, 'handlers', 'tools');

/** Goldens leave the runtime out; its API module (and the type modules it re-exports) is all the generated types need. */
const runtimeApi = Object.fromEntries(
  ['api.ts', 'protocol/content-types.ts', 'protocol/definition-types.ts', 'protocol/input-types.ts', 'protocol/list-types.ts', 'protocol/task-types.ts', 'protocol/server-options.ts'].map((name) => [join(notesGolden, 'generated', 'runtime', name), runtimeSources()[name] as string]),
);

function check(dir: string, body: string): string[] {
  const file = join(dir, 'type-test.ts');
  return typeCheck([], { [file]: body, ...(dir === notesTools ? runtimeApi : {}) });
}

const weather = (result: string, tool = 'get_weather'): string => `import type { ToolHandlers } from '../../generated/types.js';
export const handler: ToolHandlers['${tool}'] = async (input) => {
  void input;
  return ${result};
};
`;

const good = `{ structuredContent: { location: 'Oslo', temperature: 12.5, units: 'celsius', conditions: 'rain', humidity: 80 } }`;

describe('handler types', { timeout: 180_000 }, () => {
  it('accept a result that matches the outputSchema', () => {
    expect(check(weatherTools, weather(good))).toEqual([]);
  });

  it('accept a tool error instead of a result', () => {
    expect(check(weatherTools, weather(`{ isError: true, content: [{ type: 'text', text: 'no data' }] }`))).toEqual([]);
  });

  it('refuse structuredContent with a wrong type', () => {
    const diagnostics = check(weatherTools, weather(good.replace('temperature: 12.5', `temperature: 'warm'`)));
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatch(/type-test\.ts:2:14: TS2322: Type '\(input: GetWeatherInput\) => Promise<\{ structuredContent: \{ location: string; temperature: string;/);
    expect(diagnostics[0]).toMatch(
      /The types of 'structuredContent\.temperature' are incompatible between these types\.\s+Type 'string' is not assignable to type 'number'/,
    );
  });

  it('refuse structuredContent missing a required property', () => {
    const diagnostics = check(weatherTools, weather(good.replace(', humidity: 80', '')));
    expect(diagnostics.join('\n')).toMatch(/TS2322[\s\S]*Property 'humidity' is missing/);
  });

  // An extra property where the schema says `additionalProperties: false` is not a compile error
  // (TypeScript checks excess properties only on fresh literals, not through a Promise): the
  // runtime's output validation refuses it instead (see interop.test.ts).
  it('refuse a value outside the enum', () => {
    expect(check(weatherTools, weather(good.replace(`'rain'`, `'hail'`))).join('\n')).toMatch(/TS2322[\s\S]*'"hail"' is not assignable/);
  });

  it('refuse a result without structuredContent for a tool that declares an outputSchema', () => {
    const diagnostics = check(weatherTools, weather(`{ content: [{ type: 'text', text: 'hi' }] }`));
    expect(diagnostics.join('\n')).toMatch(/TS2322[\s\S]*structuredContent/);
  });

  it('type the input from the inputSchema', () => {
    const body = `import type { ToolHandlers } from '../../generated/types.js';
export const handler: ToolHandlers['get_forecast'] = async (input) => {
  const days: number | undefined = input.days;
  const units: 'celsius' | 'fahrenheit' | undefined = input.units;
  const wrong: number = input.location;
  return { isError: true, content: [{ type: 'text', text: String(days) + String(units) + String(wrong) }] };
};
`;
    expect(check(weatherTools, body)).toEqual([expect.stringMatching(/type-test\.ts:5:9: TS2322: Type 'string' is not assignable to type 'number'/)]);
  });

  it('refuse structuredContent from a tool without an outputSchema, and accept content', () => {
    const tool = (result: string): string => `import type { ToolHandlers } from '../../generated/types.js';
export const handler: ToolHandlers['add_note'] = async () => (${result});
`;
    expect(check(notesTools, tool(`{ content: [{ type: 'text', text: 'saved' }] }`))).toEqual([]);
    expect(check(notesTools, tool(`{ structuredContent: { saved: true } }`)).join('\n')).toMatch(/TS2322/);
  });

  it('make a missing or unknown tool handler a compile error in handlers/index.ts', () => {
    const index = join(repoRoot, 'examples', 'weather', 'server', 'handlers', 'type-test-index.ts');
    const missing = `import type { Handlers } from '../generated/types.js';
import { getWeather } from './tools/getWeather.js';
import { resources } from './resources.js';
import { resourceTemplates } from './resource-templates.js';
import { prompts } from './prompts.js';
export const handlers: Handlers = { tools: { get_weather: getWeather }, resources, resourceTemplates, prompts };
`;
    expect(typeCheck([], { [index]: missing }).join('\n')).toMatch(/TS2739: .* is missing the following properties from type 'ToolHandlers': get_forecast, climate_report/);
    const extra = missing
      .replace(`import { getWeather } from './tools/getWeather.js';`, `import { getWeather } from './tools/getWeather.js';\nimport { getForecast } from './tools/getForecast.js';\nimport { climateReport } from './tools/climateReport.js';`)
      .replace('{ get_weather: getWeather }', '{ get_weather: getWeather, get_forecast: getForecast, climate_report: climateReport, old_tool: getWeather }');
    expect(typeCheck([], { [index]: extra })).toEqual([expect.stringMatching(/TS2353: Object literal may only specify known properties, and 'old_tool' does not exist/)]);
  });
});
