/**
 * The mock's handler set, built from the service model: tools answer a fixture when one matches,
 * else a value generated from their outputSchema (src/samples); prompts and resources answer text
 * made from their own names and arguments. Every answer is a pure function of the seed and the
 * request, so the same seed gives the same bytes.
 */
import type { ContentResult, JsonObject, StructuredResult, ToolErrorResult, PromptHandler, ResourceHandler, ResourceReadResult, ResourceTemplateHandler, ServerHandlers, ToolHandler } from '../runtime/api.js';
import { seededRandom } from '../samples/prng.js';
import { sampleValue } from '../samples/generate.js';
import type { ServiceModel } from '../model/service-model.js';
import { VIEW_MIME_TYPE } from '../model/views.js';
import { matches, type Fixtures } from './fixtures.js';
import type { ToolValidators } from './validators.js';

const WORDS = ['clear', 'steady', 'bright', 'quiet', 'early', 'mild', 'open', 'gentle', 'brisk', 'calm', 'wide', 'fresh'];

/** JSON text with object members sorted: equal arguments give equal paths, whatever their order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function sentence(seed: string | number, path: string, words = 6): string {
  const random = seededRandom(seed, path);
  return Array.from({ length: words }, () => random.pick(WORDS)).join(' ');
}

export function mockHandlers(model: ServiceModel, validators: ReadonlyMap<string, ToolValidators>, seed: string | number, fixtures: Fixtures): ServerHandlers {
  const tools: ServerHandlers['tools'] = {};
  for (const tool of model.tools) {
    const canned = fixtures.get(tool.name) ?? [];
    const output = validators.get(tool.name)?.output;
    // Typed as a union: a tool without an outputSchema answers content, one with it structuredContent.
    const handler = (input: unknown): ContentResult | StructuredResult<unknown> | ToolErrorResult => {
      const fixture = canned.find((f) => f.match === undefined || matches(f.match, input));
      if (fixture?.error) return { isError: true, content: [{ type: 'text', text: fixture.error.message }] };
      if (fixture) return output ? { structuredContent: fixture.result } : { content: [{ type: 'text', text: String(fixture.result) }] };
      const path = `tools/call\u0000${tool.name}\u0000${canonicalJson(input)}`;
      if (!output || !tool.outputSchema) return { content: [{ type: 'text', text: `${tool.name}: ${sentence(seed, path)}` }] };
      // The runtime mirrors structuredContent into one text block, as for a real server.
      return { structuredContent: sampleValue({ schema: tool.outputSchema, seed, path, validate: output, label: `tool ${tool.name} (outputSchema)` }) };
    };
    Object.defineProperty(tools, tool.name, { value: handler as ToolHandler<unknown, unknown>, enumerable: true });
  }

  const resources: Record<string, ResourceHandler> = {};
  for (const resource of model.resources) {
    const mimeType = typeof resource.wire['mimeType'] === 'string' ? resource.wire['mimeType'] : undefined;
    Object.defineProperty(resources, resource.uri, { value: (uri: string) => resourceContents(uri, mimeType, seed, {}), enumerable: true });
  }
  // MCP Apps: each view is served as the generated server serves it (its page and `_meta.ui`); its tools answer sample data.
  for (const view of model.views ?? []) {
    const content = { uri: view.uri, mimeType: VIEW_MIME_TYPE, text: view.html, ...(view.ui !== undefined ? { _meta: { ui: view.ui } } : {}) };
    Object.defineProperty(resources, view.uri, { value: () => ({ contents: [content] }), enumerable: true });
  }
  const resourceTemplates: Record<string, ResourceTemplateHandler> = {};
  for (const template of model.resourceTemplates) {
    const mimeType = typeof template.wire['mimeType'] === 'string' ? template.wire['mimeType'] : undefined;
    Object.defineProperty(resourceTemplates, template.uriTemplate, {
      value: (uri: string, variables: Readonly<Record<string, string>>) => resourceContents(uri, mimeType, seed, variables),
      enumerable: true,
    });
  }

  const prompts: Record<string, PromptHandler<Record<string, string>>> = {};
  for (const prompt of model.prompts) {
    const handler: PromptHandler<Record<string, string>> = (args) => {
      const given = prompt.arguments.filter((a) => args[a.name] !== undefined).map((a) => `${a.name}: ${args[a.name]}`);
      const text = `${prompt.name}${given.length > 0 ? ` (${given.join(', ')})` : ''}: ${sentence(seed, `prompts/get\u0000${prompt.name}\u0000${canonicalJson(args)}`, 8)}`;
      return { messages: [{ role: 'user', content: { type: 'text', text } }] };
    };
    Object.defineProperty(prompts, prompt.name, { value: handler, enumerable: true });
  }
  return { tools, resources, resourceTemplates, prompts };
}

/** A resource's contents: JSON for a JSON mime type, else a line of text; made from the URI and the seed. */
function resourceContents(uri: string, mimeType: string | undefined, seed: string | number, variables: Readonly<Record<string, string>>): ResourceReadResult {
  const text = sentence(seed, `resources/read\u0000${uri}`, 8);
  const body: JsonObject = { uri, ...variables, text };
  const json = mimeType !== undefined && /[/+]json$/.test(mimeType);
  return { contents: [{ uri, ...(mimeType !== undefined ? { mimeType } : {}), text: json ? JSON.stringify(body) : `${uri}: ${text}` }] };
}
