import type { ServiceModel } from '../../model/service-model.js';
import { escapeInvisible, jsdoc, stringLiteral } from '../../printer/escape.js';
import { byCodeUnit, pascalCase, propertyKey } from '../../printer/names.js';
import { SourceFile } from '../../printer/source-file.js';
import { defineOwn, isSchemaObject, refSegmentKey, type SchemaObject } from '../../schema/keywords.js';
import { compileTypes, OWN_TS_TYPE } from '../types/compile-types.js';
import { embedAt, mapSchema } from './schema-walk.js';
import { toolTypeNames, typeBase, type ToolTypeNames } from './naming.js';

/**
 * `generated/types.ts`: what user code is checked against. The keyed maps (`Tools["get_weather"]`,
 * `ToolHandlers`, …) are the primary API; `GetWeatherInput`-style names are the same types under a
 * convenient name.
 */

/** json-schema-to-typescript reads the name of every type it declares from this keyword (ours only). */
const NAME_KEYWORD = 'x-mcp-gen-type-name';

/**
 * Our naming keyword, which input must not set: every declared name comes from us, so none can
 * clash with or shadow another. (compileTypes drops every other keyword the compiler must not see.)
 */
const STRIPPED = [NAME_KEYWORD];

export const TYPES_MODULE = 'types';

export async function typesFile(model: ServiceModel): Promise<string> {
  const file = new SourceFile();
  const toolNames = toolTypeNames(model);
  file.push(await toolTypes(model, toolNames), '\n');

  const api = (name: string): string => file.importType(name, './runtime/api.js');

  file.push(
    jsdoc([
      'The handler of every tool, keyed by wire name. A handler gets the validated input and must return',
      '`structuredContent` matching the tool\'s outputSchema, or an `isError: true` result.',
    ]),
    'export type ToolHandlers = {\n',
    ...model.tools.map((tool) => {
      const names = toolNames.get(tool.name) as ToolTypeNames;
      const output = names.output ?? 'never';
      return `  ${propertyKey(tool.name)}: ${api('ToolHandler')}<InputOrUnknown<${names.input}>, ${output}>;\n`;
    }),
    '};\n',
  );
  if (model.tools.length > 0) {
    file.push(
      '\n',
      // An input schema may admit no value at all (`allOf: [false]`): its type is `never`, which no
      // handler type the runtime takes accepts; such a handler is never called (issue 6 fuzzing).
      jsdoc("A tool's input type, or `unknown` for a tool whose input schema admits no value (its handler is never called)."),
      'type InputOrUnknown<T> = [T] extends [never] ? unknown : T;\n',
    );
  }

  const sections: string[] = [`  tools: ToolHandlers;\n`];
  if (model.resources.length > 0) {
    file.push(
      '\n',
      jsdoc('The URI of every resource the server lists.'),
      `export type ResourceUri = ${model.resources.map((r) => stringLiteral(r.uri)).join(' | ')};\n\n`,
      jsdoc('Reads each listed resource, keyed by URI.'),
      'export type ResourceHandlers = {\n',
      ...model.resources.map((r) => `  ${propertyKey(r.uri)}: ${api('ResourceHandler')};\n`),
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
        return `  ${propertyKey(t.uriTemplate)}: ${handler}<{ ${variables} }>;\n`;
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
        ...listed.map((t) => `  ${propertyKey(t.uriTemplate)}: ${api('ResourceListHandler')};\n`),
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
  if (model.prompts.length > 0) {
    file.push(promptArgumentTypes(model));
    file.push(
      '\n',
      jsdoc('Builds each prompt from its arguments, keyed by prompt name.'),
      'export type PromptHandlers = {\n',
      ...model.prompts.map((p) => `  ${propertyKey(p.name)}: ${api('PromptHandler')}<${p.ids.pascal}Arguments>;\n`),
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
      `  complete?: NonNullable<${api('ServerHandlers')}['complete']>;\n`,
    );
  }
  file.push('\n', jsdoc('Everything `createServer` needs from user code.'), 'export type Handlers = {\n', ...sections, '};\n');
  file.push(
    '\n',
    jsdoc('The name of every tool (what `server.tools.enable` and `.disable` take).'),
    'export type ToolName = Extract<keyof ToolHandlers, string>;\n\n',
    jsdoc('The name of every prompt (what `server.prompts.enable` and `.disable` take).'),
    `export type PromptName = ${model.prompts.length > 0 ? 'Extract<keyof PromptHandlers, string>' : 'never'};\n`,
  );
  return file.toString();
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
    const args = prompt.arguments.map((a) => `${propertyKey(a.name)}: ${handler()}<${prompt.ids.pascal}Arguments>`).join('; ');
    entries.push(`  ${propertyKey(prompt.name)}: { ${args} };\n`);
  }
  for (const template of model.resourceTemplates) {
    const variables = [...new Set(template.variables)];
    if (variables.length === 0 || taken.has(template.uriTemplate)) continue;
    taken.add(template.uriTemplate);
    const resolved = variables.map((v) => `readonly ${propertyKey(v)}: string`).join('; ');
    entries.push(`  ${propertyKey(template.uriTemplate)}: { ${variables.map((v) => `${propertyKey(v)}: ${handler()}<{ ${resolved} }>`).join('; ')} };\n`);
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

/**
 * The `Tools` map and one named type per input and output schema, through json-schema-to-typescript.
 * All schemas go into one document so that names are assigned once, without clashes: `Tools` is the
 * root and each tool's schemas sit under `$defs` (their local `$ref`s rewritten to match).
 */
export async function toolTypes(model: ServiceModel, names: Map<string, ToolTypeNames>): Promise<string> {
  const defs: SchemaObject = {};
  const properties: SchemaObject = {};
  const taken = new Set([
    ...FIXED_NAMES,
    ...[...names.values()].flatMap((n) => [n.input, n.output ?? n.input]),
    ...model.prompts.map((p) => `${p.ids.pascal}Arguments`),
  ]);
  const shared = sharedDefinitions(model, taken);
  for (const definition of shared.values()) {
    const schema = mapSchema(definition.schema, (node) => stripForTypes(node)) as SchemaObject;
    schema[NAME_KEYWORD] = definition.name;
    defineOwn(defs, definition.name, schema);
  }
  for (const tool of model.tools) {
    const n = names.get(tool.name) as ToolTypeNames;
    defineOwn(defs, n.input, typeSchema(tool.inputSchema, n.input, shared));
    const entry: SchemaObject = {
      type: 'object',
      additionalProperties: false,
      required: ['input', 'output'],
      properties: {
        input: { $ref: `#/$defs/${n.input}` },
        // Our own type: tools without an outputSchema have no structured output at all.
        output: tool.outputSchema && n.output ? { $ref: `#/$defs/${n.output}` } : { [OWN_TS_TYPE]: 'never' },
      },
    };
    if (tool.outputSchema && n.output) defineOwn(defs, n.output, typeSchema(tool.outputSchema, n.output, shared));
    defineOwn(properties, tool.name, entry);
  }
  const root: SchemaObject = {
    [NAME_KEYWORD]: 'Tools',
    description: 'Input and output types of every tool, keyed by wire name: `Tools["get_weather"]["input"]`.',
    type: 'object',
    additionalProperties: false,
    required: model.tools.map((t) => t.name),
    properties,
    $defs: defs,
  };
  const code = await compileTypes(root, 'Tools', {
    strictIndexSignatures: false,
    keepKeywords: [NAME_KEYWORD],
    customName: (schema) => {
      const name = (schema as SchemaObject)[NAME_KEYWORD];
      return typeof name === 'string' ? name : undefined;
    },
  });
  // One pass over the declarations (a regular expression per name was quadratic in the tool count).
  const declared = new Set([...code.matchAll(/^export (?:interface|type) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]));
  if (!declared.has('Tools')) throw new Error('json-schema-to-typescript did not declare Tools');
  // A schema whose type comes out as `unknown` (say `allOf: [true]`) is printed inline, not
  // declared; its name then stands for what `Tools` holds.
  const aliases: string[] = [];
  for (const tool of model.tools) {
    const n = names.get(tool.name) as ToolTypeNames;
    const key = stringLiteral(tool.name);
    if (!declared.has(n.input)) aliases.push(`export type ${n.input} = Tools[${key}]["input"];\n`);
    if (n.output && !declared.has(n.output)) aliases.push(`export type ${n.output} = Tools[${key}]["output"];\n`);
  }
  // String literal types come out of JSON.stringify, which leaves U+2028/U+2029 raw.
  return escapeInvisible(code) + aliases.join('');
}

/** Names types.ts declares or imports besides the schema types. */
const FIXED_NAMES = [
  'Tools',
  'InputOrUnknown',
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
  'ResourceListHandler',
  'ResourceListHandlers',
  'ResourceSubscriptionHooks',
  'CompletionHandlers',
  'CompletionHandler',
];

interface SharedDefinition {
  name: string;
  schema: SchemaObject;
}

/**
 * The loader copies each shared manifest definition into every tool schema that uses it. A
 * definition held identically by every schema that has it, and referring to nothing, becomes one
 * type named after its key (`Units`; `Def_Units` if that name is taken) instead of one per schema
 * (`GetWeatherInput_Units`, `GetForecastInput_Units`, …).
 */
function sharedDefinitions(model: ServiceModel, taken: Set<string>): Map<string, SharedDefinition> {
  const canonicalByKey = new Map<string, string | null>();
  const firstByKey = new Map<string, SchemaObject>();
  for (const schema of model.tools.flatMap((t) => (t.outputSchema ? [t.inputSchema, t.outputSchema] : [t.inputSchema]))) {
    for (const keyword of ['$defs', 'definitions']) {
      const definitions = schema[keyword];
      if (!isSchemaObject(definitions)) continue;
      for (const [key, definition] of Object.entries(definitions)) {
        const text = isSchemaObject(definition) && !refersToAnything(definition) ? canonical(definition) : null;
        if (!canonicalByKey.has(key)) {
          canonicalByKey.set(key, text);
          if (isSchemaObject(definition)) firstByKey.set(key, definition);
        } else if (canonicalByKey.get(key) !== text) {
          canonicalByKey.set(key, null);
        }
      }
    }
  }
  const shared = new Map<string, SharedDefinition>();
  for (const key of [...canonicalByKey.keys()].sort(byCodeUnit)) {
    const schema = firstByKey.get(key);
    if (canonicalByKey.get(key) === null || schema === undefined) continue;
    const base = typeBase(pascalCase(key));
    const name = [base, `Def_${base}`].find((n) => !taken.has(n));
    if (name === undefined) continue;
    taken.add(name);
    shared.set(key, { name, schema });
  }
  return shared;
}

function refersToAnything(schema: SchemaObject): boolean {
  let refers = false;
  mapSchema(schema, (node) => {
    if (node['$ref'] !== undefined || node['$dynamicRef'] !== undefined || node['$recursiveRef'] !== undefined) refers = true;
    return node;
  });
  return refers;
}

/** JSON with object keys sorted, so equal schemas give equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isSchemaObject(value)) {
    const keys = Object.keys(value).sort(byCodeUnit);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Removes the naming keyword from input (see STRIPPED). */
function stripForTypes(node: SchemaObject): SchemaObject {
  for (const key of STRIPPED) delete node[key];
  return node;
}

/**
 * A copy for type generation: embedded under `#/$defs/<name>`, stripped (see stripForTypes), each
 * `$defs` entry named `<name>_<Key>`, and references to shared definitions pointed at those.
 */
function typeSchema(schema: SchemaObject, name: string, shared: ReadonlyMap<string, SharedDefinition>): SchemaObject {
  const embedded = embedAt(schema, `/$defs/${name}`);
  const ownDefinition = new RegExp(`^#/\\$defs/${name.replace(/\$/g, '\\$')}/(?:\\$defs|definitions)/([^/]+)$`);
  const named = mapSchema(embedded, (node, position) => {
    stripForTypes(node);
    const ref = node['$ref'];
    const match = typeof ref === 'string' ? ownDefinition.exec(ref) : null;
    const key = match ? refSegmentKey(match[1] as string) : undefined;
    const definition = key === undefined ? undefined : shared.get(key);
    if (definition) node['$ref'] = `#/$defs/${definition.name}`;
    if (position.isDefinition) {
      node[NAME_KEYWORD] = [name, ...position.definitions.map((key) => typeBase(pascalCase(key)))].join('_');
    }
    return node;
  }) as SchemaObject;
  named[NAME_KEYWORD] = name;
  return named;
}
