import type { ServiceModel, ToolModel } from '../../model/service-model.js';
import { jsdoc, stringLiteral } from '../../printer/escape.js';
import { propertyKey } from '../../printer/names.js';
import { formatTypeScript, spliceUnits, unitMarker, type MemberPart, type UnitMemo, type UnitRun } from '../../printer/format.js';
import { SourceFile } from '../../printer/source-file.js';
import { toolTypeUnits, type ToolTypeUnits } from './tool-types.js';
import { toolTypeNames, type ToolTypeNames } from '../shared/naming.js';

/**
 * `generated/types.ts`: what user code is checked against. The keyed maps (`Tools["get_weather"]`,
 * `ToolHandlers`, …) are the primary API; `GetWeatherInput`-style names are the same types under a
 * convenient name.
 */

export const TYPES_MODULE = 'types';

/** The handlers' context type, declared at the end of types.ts. */
const CONTEXT = 'HandlerContext';

/**
 * Assembled from units (see tool-types.ts), already formatted: each tool's types are compiled and
 * formatted alone (and cached), the rest of the file (which names types but holds no schema) once.
 */
export async function typesFile(model: ServiceModel, memo?: UnitMemo): Promise<string> {
  const file = new SourceFile();
  const toolNames = toolTypeNames(model);
  const api = (name: string): string => file.importType(name, './runtime/api.js');
  // Tools shown in a view have a handler type of their own (viewHandlerTypes): no unused alias when all are.
  const plainTools = model.tools.some((tool) => tool.view === undefined);
  const handler = plainTools ? api('ToolHandler') : '';
  const handlerMember = (tool: ToolModel, names: ToolTypeNames): MemberPart[] => [
    { name: 'handlers', kind: 'interface', code: `  ${propertyKey(tool.name)}: ${tool.view !== undefined ? 'ViewToolHandler' : 'TypedToolHandler'}<${names.input}, ${names.output ?? 'never'}>;\n` },
  ];
  const tools = await toolTypeUnits(model, toolNames, FIXED_NAMES, memo, handlerMember);
  file.push(tools.toolsMap, '\n', unitMarker('types'), '\n\n');

  file.push(
    jsdoc([
      'The handler of every tool, keyed by wire name. A handler gets the validated input and must return',
      '`structuredContent` matching the tool\'s outputSchema, or an `isError: true` result.',
    ]),
    'export type ToolHandlers = {\n',
    model.tools.length === 0 ? '' : `${unitMarker('handlers')}\n`,
    '};\n',
  );
  if (model.tools.length > 0) {
    file.push(
      '\n',
      // An input schema may admit no value at all (`allOf: [false]`): its type is `never`, which no
      // handler type the runtime takes accepts; such a handler is never called (found by the generator fuzz suite).
      jsdoc("A tool's input type, or `unknown` for a tool whose input schema admits no value (its handler is never called)."),
      'type InputOrUnknown<T> = [T] extends [never] ? unknown : T;\n\n',
      // One short name for every member: a member line that stays within the print width skips prettier.
      plainTools ? jsdoc("A tool's handler, given its input and a context whose `lists` take the manifest's names.") : '',
      plainTools ? `type TypedToolHandler<Input, Output> = ${handler}<InputOrUnknown<Input>, Output, ${CONTEXT}>;\n` : '',
    );
  }
  if (model.tools.some((tool) => tool.view !== undefined)) file.push(viewHandlerTypes(api));

  const sections: string[] = [`  tools: ToolHandlers;\n`];
  pushResourceHandlers(file, model, api, sections);
  if (model.prompts.length > 0) {
    file.push(promptArgumentTypes(model));
    file.push(
      '\n',
      jsdoc('Builds each prompt from its arguments, keyed by prompt name.'),
      'export type PromptHandlers = {\n',
      ...model.prompts.map((p) => `  ${propertyKey(p.name)}: ${api('PromptHandler')}<${p.ids.pascal}Arguments, ${CONTEXT}>;\n`),
      '};\n',
    );
    sections.push('  prompts: PromptHandlers;\n');
  }
  const completable = completionEntries(model, () => api('CompletionHandler'));
  if (completable.length > 0) {
    file.push(
      '\n',
      jsdoc([
        'Completion handlers, keyed by prompt name or URI template, then by argument or template variable:',
        '`CompletionHandlers["plan_outing"]["city"]`. Each gets what was typed and the arguments already filled in.',
      ]),
      'export type CompletionHandlers = {\n',
      ...completable,
      '};\n',
    );
    sections.push(
      `${jsdoc('Completes the arguments you give a handler for; the others fall back to `complete`, then to the manifest\'s `enum` values.', '  ')}`,
      '  completions?: { [K in keyof CompletionHandlers]?: Partial<CompletionHandlers[K]> };\n',
    );
  }
  if (model.prompts.length > 0 || model.resourceTemplates.length > 0) {
    sections.push(
      `${jsdoc('Answers `completion/complete` for prompt arguments and template variables; without it, no suggestions.', '  ')}`,
      `  complete?: NonNullable<${api('ServerHandlers')}<${CONTEXT}>['complete']>;\n`,
    );
  }
  file.push('\n', jsdoc('Everything `createServer` needs from user code.'), 'export type Handlers = {\n', ...sections, '};\n');
  file.push(
    '\n',
    jsdoc('The name of every tool (what `server.tools.enable` and `.disable` take).'),
    'export type ToolName = Extract<keyof ToolHandlers, string>;\n\n',
    jsdoc('The name of every prompt (what `server.prompts.enable` and `.disable` take).'),
    `export type PromptName = ${model.prompts.length > 0 ? 'Extract<keyof PromptHandlers, string>' : 'never'};\n\n`,
    jsdoc([
      'What every handler gets beside its input: `context.lists.tools` and `.prompts` take only the',
      "manifest's names, as `server.tools` and `.prompts` do.",
    ]),
    `export type ${CONTEXT} = ${api('RequestContext')}<ToolName, PromptName>;\n`,
  );
  return assembleTypes(file.toString(), tools, memo, ['handlers']);
}

/** The resource, template, list and subscription handler types, each section's member added to `sections` (the Handlers type). */
function pushResourceHandlers(file: SourceFile, model: ServiceModel, api: (name: string) => string, sections: string[]): void {
  if (model.resources.length > 0) {
    file.push(
      '\n',
      jsdoc('The URI of every resource the server lists.'),
      `export type ResourceUri = ${model.resources.map((r) => stringLiteral(r.uri)).join(' | ')};\n\n`,
      jsdoc('Reads each listed resource, keyed by URI.'),
      'export type ResourceHandlers = {\n',
      ...model.resources.map((r) => `  ${propertyKey(r.uri)}: ${api('ResourceHandler')}<${CONTEXT}>;\n`),
      '};\n',
    );
    sections.push('  resources: ResourceHandlers;\n');
  }
  if (model.resourceTemplates.length > 0) {
    const handler = api('ResourceTemplateHandler');
    file.push(
      '\n',
      jsdoc('Reads resources by URI template, keyed by template; `variables` holds the values of its `{placeholders}`.'),
      'export type ResourceTemplateHandlers = {\n',
      ...model.resourceTemplates.map((t) => {
        const variables = [...new Set(t.variables)].map((v) => `readonly ${propertyKey(v)}: string`).join('; ');
        return `  ${propertyKey(t.uriTemplate)}: ${handler}<{ ${variables} }, ${CONTEXT}>;\n`;
      }),
      '};\n',
    );
    sections.push('  resourceTemplates: ResourceTemplateHandlers;\n');
    const listed = model.resourceTemplates.filter((t) => t.list);
    if (listed.length > 0) {
      file.push(
        '\n',
        jsdoc('Lists the resources each `list: true` template has now (read through its template handler), keyed by template.'),
        'export type ResourceListHandlers = {\n',
        ...listed.map((t) => `  ${propertyKey(t.uriTemplate)}: ${api('ResourceListHandler')}<${CONTEXT}>;\n`),
        '};\n',
      );
      sections.push('  resourceLists: ResourceListHandlers;\n');
    }
  }
  if (model.subscribe && (model.resources.length > 0 || model.resourceTemplates.length > 0)) {
    sections.push(
      `${jsdoc('Called when the first client subscribes to a URI and when the last one leaves: start and stop watching there.', '  ')}`,
      `  resourceSubscriptions?: ${api('ResourceSubscriptionHooks')};\n`,
    );
  }
}

/** The formatted skeleton with the type units where its marker is, a blank line between them. */
export async function assembleTypes(skeleton: string, tools: ToolTypeUnits, memo: UnitMemo | undefined, memberParts: readonly string[] = []): Promise<string> {
  const formatted = await formatTypeScript(skeleton, memo);
  const runs = new Map<string, UnitRun>([['types', { units: tools.units, indent: 0, separator: '\n' }]]);
  for (const part of ['tools-map', ...memberParts]) {
    runs.set(part, { units: tools.members.map((m) => m.get(part) ?? ''), indent: 2, separator: '' });
  }
  return spliceUnits(formatted, runs);
}

/**
 * One `CompletionHandlers` entry per prompt with arguments and per template with variables. A
 * template spelled exactly like a prompt name shares that prompt's entry (one key per name).
 */
function completionEntries(model: ServiceModel, handlerType: () => string): string[] {
  const entries: string[] = [];
  // Imported only when some entry uses it.
  const handler = (): string => handlerType();
  const taken = new Set<string>();
  for (const prompt of model.prompts) {
    if (prompt.arguments.length === 0) continue;
    taken.add(prompt.name);
    const args = prompt.arguments.map((a) => `${propertyKey(a.name)}: ${handler()}<${prompt.ids.pascal}Arguments, ${CONTEXT}>`).join('; ');
    entries.push(`  ${propertyKey(prompt.name)}: { ${args} };\n`);
  }
  for (const template of model.resourceTemplates) {
    const variables = [...new Set(template.variables)];
    if (variables.length === 0 || taken.has(template.uriTemplate)) continue;
    taken.add(template.uriTemplate);
    const resolved = variables.map((v) => `readonly ${propertyKey(v)}: string`).join('; ');
    entries.push(`  ${propertyKey(template.uriTemplate)}: { ${variables.map((v) => `${propertyKey(v)}: ${handler()}<{ ${resolved} }, ${CONTEXT}>`).join('; ')} };\n`);
  }
  return entries;
}

/** `<Prompt>Arguments` for every prompt: the server's handlers and the client's calls take them. */
export function promptArgumentTypes(model: ServiceModel): string {
  return model.prompts
    .map((prompt) =>
      [
        '\n',
        jsdoc(`Arguments of the prompt ${JSON.stringify(prompt.name)}; the protocol sends them all as strings.`),
        `export type ${prompt.ids.pascal}Arguments = {\n`,
        ...prompt.arguments.map((a) => `${jsdoc(a.description ?? '', '  ')}  ${propertyKey(a.name)}${a.required ? '' : '?'}: string;\n`),
        '};\n',
      ].join(''),
    )
    .join('');
}

/** Names types.ts declares or imports besides the schema types. */
export const FIXED_NAMES = [
  'Tools',
  'InputOrUnknown',
  'TypedToolHandler',
  'ViewToolHandler',
  'ViewToolResult',
  'ToolHandlers',
  'ResourceUri',
  'ResourceHandlers',
  'ResourceTemplateHandler',
  'ResourceTemplateHandlers',
  'PromptHandlers',
  'Handlers',
  'ToolHandler',
  'ResourceHandler',
  'PromptHandler',
  'RequestContext',
  'ResourceReadResult',
  'ServerHandlers',
  'ToolName',
  'PromptName',
  'HandlerContext',
  'ResourceListHandler',
  'ResourceListHandlers',
  'ResourceSubscriptionHooks',
  'CompletionHandlers',
  'CompletionHandler',
];

/**
 * MCP Apps: a tool shown in a view returns `structuredContent` for the view and, always, `content`
 * for the model (and for hosts that show no views), as the extension asks.
 */
function viewHandlerTypes(api: (name: string) => string): string {
  const [structured, content, error, block] = ['StructuredResult', 'ContentResult', 'ToolErrorResult', 'ContentBlock'].map(api) as [string, string, string, string];
  return [
    '\n',
    jsdoc("What a tool shown in a view returns: `structuredContent` for the view, and `content` for the model."),
    `type ViewToolResult<Output> = [Output] extends [never] ? ${content} | ${error} : (${structured}<Output> & { content: ${block}[] }) | ${error};\n\n`,
    jsdoc("A view's tool handler: like the others, but its result always has `content`."),
    `type ViewToolHandler<Input, Output> = (input: InputOrUnknown<Input>, context: ${CONTEXT}) => ViewToolResult<Output> | Promise<ViewToolResult<Output>>;\n`,
  ].join('');
}
