import type { ServiceModel } from '../../model/service-model.js';
import { STATELESS_REVISION } from '../../model/service.js';
import { jsdoc, jsonValueExpression, stringLiteral } from '../../printer/escape.js';
import { formatTypeScript, formatUnit, spliceUnits, unitMarker, type UnitMemo } from '../../printer/format.js';
import { SourceFile } from '../../printer/source-file.js';
import { toolStatementLayout, toolStatementSource, type ToolStatementParts } from '../../printer/prettier-layout.js';
import type { ToolTypeNames } from '../shared/naming.js';
import { schemaDigest } from '../../schema/digest.js';
import { isSchemaObject } from '../../schema/keywords.js';
import { UI_EXTENSION } from '../../model/views.js';
import { VIEWS_MODULE } from './views-file.js';
import { TOOL_DEFINITIONS_MODULE } from './tool-definitions-file.js';

/** Whether the server serves the stateless revision, whose requests have validators of their own. */
export function servesStateless(model: ServiceModel): boolean {
  return model.protocolVersions.includes(STATELESS_REVISION);
}

/** How server.ts names tool-definitions.ts, when the tools' entries are there. */
const DEFINITIONS = 'toolDefinitions';

/** The runtime's one entry module, relative to `generated/`. */
const RUNTIME = './runtime/index.js';

/**
 * The capabilities a manifest implies: each feature only when the manifest has something for it,
 * logging always (handlers can log through their context), completions where there are prompt
 * arguments or template variables to complete.
 */
export function capabilities(model: ServiceModel): Record<string, object> {
  const caps: Record<string, object> = {};
  const listChanged = model.listChanged ? { listChanged: true } : {};
  if (model.tools.length > 0) caps['tools'] = listChanged;
  const views = model.views ?? [];
  if (model.resources.length > 0 || model.resourceTemplates.length > 0 || views.length > 0) {
    caps['resources'] = model.subscribe ? { subscribe: true, ...listChanged } : listChanged;
  }
  if (model.prompts.length > 0) caps['prompts'] = listChanged;
  caps['logging'] = {};
  if (model.prompts.length > 0 || model.resourceTemplates.length > 0) caps['completions'] = {};
  // Only 2026-07-28 has this field; the runtime leaves it out of the stateful initialize results.
  if (model.extensions !== undefined) caps['extensions'] = model.extensions;
  // MCP Apps: the runtime reads this to negotiate views with each host (runtime/features/ui/).
  if (views.length > 0 || model.tools.some((tool) => tool.view !== undefined || tool.visibility !== undefined)) {
    caps['extensions'] = { ...model.extensions, [UI_EXTENSION]: {} };
  }
  return caps;
}

/**
 * `generated/server.ts`: the `ServerDefinition` (every wire payload precomputed as data) and a
 * `createServer` typed with the manifest's `Handlers`. Each tool's `tools/list` entry is embedded
 * as JSON text (`ToolText`), which the runtime serves as it is: starting a server parses none of
 * them. Assembled already formatted: each tool is a top-level statement of its own (its entry,
 * binding and the facts start-up needs), formatted alone and cached, so a warm run after one tool
 * changed formats that one; the rest of the file names tools but holds none of their data, and is
 * formatted once. With `definitionsModule` (a server whose tools share large definitions), each
 * statement names its entry's text in `tool-definitions.ts` instead (tool-definitions-file.ts).
 */
export async function serverFile(
  model: ServiceModel,
  toolNames: Map<string, ToolTypeNames>,
  validatorModules: ReadonlyMap<string, string>,
  memo?: UnitMemo,
  definitionsModule = false,
): Promise<string> {
  const file = new SourceFile();
  const type = (name: string): string => file.importType(name, RUNTIME);

  // Printed in prettier's layout directly where the shape allows (nearly always); the rest all at
  // once, since the formatter batches what is asked for together (see formatUnit).
  // Each statement is cached whole, keyed by its inputs: a warm run neither escapes nor lays out
  // the 1,000 tools/list entries that did not change (the escaping alone is most of the cost).
  const units = await Promise.all(
    model.tools.map((tool) => {
      const print = (): Promise<string> => {
        // With tool-definitions.ts, the entry is named there, not written out (tool-definitions-file.ts).
        const text = definitionsModule ? `${DEFINITIONS}.${toolConstant(tool)}` : stringLiteral(JSON.stringify(tool.wire));
        const parts = toolStatementParts(tool, text, toolNames, validatorModules);
        const laidOut = toolStatementLayout(parts);
        return laidOut === undefined ? formatUnit(toolStatementSource(parts), memo) : Promise.resolve(laidOut);
      };
      if (memo === undefined) return print();
      const names = toolNames.get(tool.name) as ToolTypeNames;
      // The entry with its schemas by digest (schema/digest.ts): the key stays short, and no schema is written out for it.
      const wire = { ...tool.wire };
      for (const key of ['inputSchema', 'outputSchema'] as const) {
        const schema = wire[key];
        if (isSchemaObject(schema)) wire[key] = { sha256: schemaDigest(schema) };
      }
      const key = JSON.stringify([definitionsModule, toolConstant(tool), tool.name, validatorModules.get(tool.name), names.validateInput, names.validateOutput ?? null, wire]);
      return memo('server-tool-statement', key, print);
    }),
  );
  const toolConstants = model.tools.map((tool) => toolConstant(tool));

  const { instructions, ...serverInfo } = model.server;
  const listedTemplates = model.resourceTemplates.filter((t) => t.list).map((t) => t.uriTemplate);
  file.push(
    // The runtime's createServer is imported under another name, since this module exports its own.
    `import { createServer as createRuntimeServer } from ${stringLiteral(RUNTIME)};\n`,
    definitionsModule ? `import * as ${DEFINITIONS} from ${stringLiteral(`./${TOOL_DEFINITIONS_MODULE}.js`)};\n\n` : '\n',
  );
  if (model.tools.length > 0) {
    const toolText = type('ToolText');
    file.push(unitMarker('tools'), '\n\n', `const TOOLS: readonly ${toolText}[] = [${toolConstants.join(', ')}];\n\n`);
  }
  const initializeValidator = file.importValue('validateInitializeRequest', './runtime/initialize-validators.js');
  file.importType('Handlers', './types.js');
  file.importType('ToolName', './types.js');
  file.importType('PromptName', './types.js');
  file.push(
    jsdoc('Everything the runtime needs to know about this server, computed from the manifest.'),
    `export const definition: ${type('ServerDefinition')} = {\n`,
    `  serverInfo: ${jsonValueExpression(serverInfo)},\n`,
    instructions === undefined ? '' : `  instructions: ${stringLiteral(instructions)},\n`,
    `  protocolVersions: ${jsonValueExpression(model.protocolVersions)},\n`,
    `  capabilities: ${jsonValueExpression(capabilities(model))},\n`,
    // The tools come as texts (`toolTexts`): the object form stays empty.
    '  tools: [],\n',
    '  toolBindings: {},\n',
    model.tools.length === 0 ? '' : '  toolTexts: TOOLS,\n',
    `  resources: ${jsonValueExpression([...model.resources, ...(model.views ?? [])].map((r) => r.wire))},\n`,
    `  resourceTemplates: ${jsonValueExpression(model.resourceTemplates.map((t) => t.wire))},\n`,
    `  prompts: ${jsonValueExpression(model.prompts.map((p) => p.wire))},\n`,
    model.pageSize === undefined ? '' : `  pageSize: ${model.pageSize},\n`,
    listedTemplates.length === 0 ? '' : `  listedTemplates: ${jsonValueExpression(listedTemplates)},\n`,
    model.caching === undefined ? '' : `  caching: ${jsonValueExpression(model.caching)},\n`,
    completionDefaultsLine(model),
    // A start needs only initialize's validator; the others load with the first message after it.
    `  initializeValidator: ${initializeValidator},\n`,
    "  requestValidators: () => import('./runtime/request-validators.js').then((m) => m.requestValidators),\n",
    // Loaded on the first request the server sends its client: most servers never send one.
    "  resultValidators: () => import('./runtime/result-validators.js').then((m) => m.resultValidators),\n",
    // Loaded with the first 2026-07-28 request: a server answering only stateful clients never parses them.
    servesStateless(model) ? "  statelessValidators: () => import('./runtime/stateless-validators.js').then((m) => m.statelessValidators),\n" : '',
    '};\n\n',
    jsdoc([
      'Creates the server from your handlers; start it with `serveStdio()` or `listenHttp(…)`.',
      'Throws when a handler the manifest needs is missing. `server.tools` and `server.prompts`',
      "turn the manifest's tools and prompts on and off at run time.",
    ]),
    `export function createServer(handlers: Handlers, options?: ${type('ServerOptions')}): ${type('McpServer')}<ToolName, PromptName> {\n`,
    `  return createRuntimeServer<ToolName, PromptName>(definition, ${model.views?.length ? `${file.importValue('withViews', `./${VIEWS_MODULE}.js`)}(handlers)` : 'handlers'}, options);\n`,
    '}\n',
  );
  if (model.auth !== undefined) {
    const settings = file.importType('AuthSettings', './runtime/auth/index.js');
    file.push(
      '\n',
      jsdoc('The OAuth resource server this HTTP server is (manifest `auth`): pass it to `createResourceServerAuth`.'),
      `export const authSettings: ${settings} = ${jsonValueExpression(authSettings(model))};\n`,
    );
  }
  const skeleton = await formatTypeScript(file.toString(), memo);
  return spliceUnits(skeleton, new Map([['tools', { units, indent: 0, separator: '\n' }]]));
}

/** The constant a tool's statement declares: `tool_` and its identifier, so it meets no other name of this file. */
export function toolConstant(tool: ServiceModel['tools'][number]): string {
  return `tool_${tool.ids.camel}`;
}

/**
 * One tool as a statement: its `tools/list` entry as text, the facts of it the runtime needs at
 * start (so it parses no entry), and its validators, imported on its first call (tool-loading.ts).
 */
function toolStatementParts(tool: ServiceModel['tools'][number], textExpression: string, toolNames: Map<string, ToolTypeNames>, validatorModules: ReadonlyMap<string, string>): ToolStatementParts {
  const names = toolNames.get(tool.name) as ToolTypeNames;
  const exports = [`validateInput: m.${names.validateInput}`];
  if (names.validateOutput !== undefined) exports.push(`validateOutput: m.${names.validateOutput}`);
  return {
    constant: toolConstant(tool),
    wireLiteral: textExpression,
    nameLiteral: stringLiteral(tool.name),
    moduleLiteral: stringLiteral(validatorModules.get(tool.name) as string),
    facts: toolFacts(tool.wire),
    exports,
  };
}

/** `taskSupport` unless `forbidden`, and `objectOutput: false` for an outputSchema that is not an object schema: what `ToolText` asks, read as the runtime reads the entry. */
function toolFacts(wire: Record<string, unknown>): string[] {
  const facts: string[] = [];
  const execution = wire['execution'];
  const support = typeof execution === 'object' && execution !== null ? (execution as Record<string, unknown>)['taskSupport'] : undefined;
  if (support === 'optional' || support === 'required') facts.push(`taskSupport: '${support}'`);
  const output = wire['outputSchema'];
  const objectOutput = output === undefined || (typeof output === 'object' && output !== null && !Array.isArray(output) && (output as Record<string, unknown>)['type'] === 'object');
  if (!objectOutput) facts.push('objectOutput: false');
  return facts;
}

/** The manifest's `auth` and the scopes its tools, prompts and resources need (only those that need some); also `mcp-gen mock --enforce-auth`'s. */
export function authSettings(model: ServiceModel): Record<string, unknown> {
  const table = (entries: { key: string; scopes?: string[] }[]): Record<string, string[]> | undefined => {
    const pairs = entries.flatMap((e) => (e.scopes === undefined ? [] : [[e.key, e.scopes] as const]));
    return pairs.length === 0 ? undefined : Object.fromEntries(pairs);
  };
  const settings: Record<string, unknown> = { ...model.auth };
  const tables = {
    toolScopes: table(model.tools.map((t) => ({ key: t.name, ...(t.scopes ? { scopes: t.scopes } : {}) }))),
    promptScopes: table(model.prompts.map((p) => ({ key: p.name, ...(p.scopes ? { scopes: p.scopes } : {}) }))),
    resourceScopes: table(model.resources.map((r) => ({ key: r.uri, ...(r.scopes ? { scopes: r.scopes } : {}) }))),
    resourceTemplateScopes: table(model.resourceTemplates.map((r) => ({ key: r.uriTemplate, ...(r.scopes ? { scopes: r.scopes } : {}) }))),
  };
  for (const [key, value] of Object.entries(tables)) if (value !== undefined) settings[key] = value;
  return settings;
}

/**
 * The manifest's `enum` values per prompt argument and template variable, as the runtime's
 * `definition.completionDefaults` takes them; undefined when there are none. `mcp-gen mock` serves
 * the same table, so both answer `completion/complete` alike.
 */
export function completionDefaults(model: ServiceModel): { prompts?: Record<string, Record<string, string[]>>; resourceTemplates?: Record<string, Record<string, string[]>> } | undefined {
  // Object.fromEntries makes own properties, so a prompt named `__proto__` is just a key.
  const prompts = Object.fromEntries(
    model.prompts
      .map((p) => [p.name, Object.fromEntries(p.arguments.flatMap((a) => (a.enum === undefined ? [] : [[a.name, a.enum]])))] as const)
      .filter(([, args]) => Object.keys(args).length > 0),
  );
  const templates = Object.fromEntries(model.resourceTemplates.flatMap((t) => (t.variableEnums === undefined ? [] : [[t.uriTemplate, t.variableEnums]])));
  const defaults: { prompts?: Record<string, Record<string, string[]>>; resourceTemplates?: Record<string, Record<string, string[]>> } = {};
  if (Object.keys(prompts).length > 0) defaults.prompts = prompts;
  if (Object.keys(templates).length > 0) defaults.resourceTemplates = templates;
  return Object.keys(defaults).length === 0 ? undefined : defaults;
}

/** `completionDefaults` of the generated server's definition, when there are any. */
function completionDefaultsLine(model: ServiceModel): string {
  const defaults = completionDefaults(model);
  return defaults === undefined ? '' : `  completionDefaults: ${jsonValueExpression(defaults)},\n`;
}
