/**
 * `mcp-gen view`: typed bindings for the page of one MCP Apps view, dependency-free:
 * - `view.ts`: `connectView()` (the `ui/initialize` handshake) and the typed `View`: `tools.<name>`
 *   for every tool views may call, results checked by the precompiled validators; typed tool-input
 *   (complete and partial), tool-result and cancellation events for the tools the view shows; the
 *   host context; `openLink`, `sendMessage`, `updateModelContext`, `requestDisplayMode`, sizes;
 * - `types.ts` and `validators.ts`: those tools' types and output validators (as `mcp-gen client`);
 * - `bridge.ts`, `view-object.ts`: postMessage JSON-RPC with the host (src/runtime/client/view/).
 */
import type { ServiceModel, ToolModel } from '../../model/service-model.js';
import { callableFromViews, viewOfTool } from '../../model/views.js';
import { jsdoc, stringLiteral } from '../../printer/escape.js';
import { propertyKey } from '../../printer/names.js';
import type { UnitMemo } from '../../printer/format.js';
import { unitMarker } from '../../printer/format.js';
import type { PlannedFile } from '../../write/planned-file.js';
import { outputValidators } from '../client/index.js';
import type { ImportExtension } from '../import-extension.js';
import { toolTypeNames, type ToolTypeNames } from '../shared/naming.js';
import { assembleTypes, FIXED_NAMES, TYPES_MODULE } from '../types/types-file.js';
import { toolTypeUnits } from '../types/tool-types.js';
import type { Memo } from '../validators/tool-validators.js';

export interface ViewInputs {
  /** `bridge.ts` and `view-object.ts` of src/runtime/client/view/, read by the CLI. */
  bridgeSources: Readonly<Record<string, string>>;
  memo?: Memo;
  memoAsync?: UnitMemo;
  importExtension?: ImportExtension;
}

/** The views a server has: declared in the manifest, listed as `ui://` resources, or linked from tools. */
export function viewUris(model: ServiceModel): string[] {
  const uris = new Set<string>();
  for (const view of model.views ?? []) uris.add(view.uri);
  for (const resource of model.resources) if (resource.uri.startsWith('ui://')) uris.add(resource.uri);
  for (const tool of model.tools) {
    const view = viewOfTool(tool);
    if (view !== undefined) uris.add(view);
  }
  return [...uris].sort();
}

export async function planView(model: ServiceModel, uri: string, inputs: ViewInputs): Promise<PlannedFile[]> {
  const shown = model.tools.filter((tool) => viewOfTool(tool) === uri);
  const callable = model.tools.filter(callableFromViews);
  // One model of the tools the page meets, so types.ts and validators.ts hold only those.
  const tools = model.tools.filter((tool) => shown.includes(tool) || callable.includes(tool));
  const subset: ServiceModel = { ...model, tools, prompts: [], resources: [], resourceTemplates: [] };
  const names = toolTypeNames(subset);
  const ext = inputs.importExtension ?? 'js';
  const [types, validators] = await Promise.all([
    toolTypeUnits(subset, names, FIXED_NAMES, inputs.memoAsync).then((units) => assembleTypes([units.toolsMap, '\n', unitMarker('types'), '\n'].join(''), units, inputs.memoAsync)),
    outputValidators(subset, names, inputs.memo, ext),
  ]);
  const files: PlannedFile[] = Object.entries(inputs.bridgeSources).map(([name, content]) => ({ path: name, owner: 'generated', format: 'none', content }));
  files.push({ path: `${TYPES_MODULE}.ts`, owner: 'generated', format: 'none', content: types });
  if (validators !== undefined) files.push(...validators.files);
  files.push({ path: 'view.ts', owner: 'generated', format: 'typescript', content: viewFile(model, uri, shown, callable, names, validators !== undefined, ext) });
  return files;
}

function viewFile(model: ServiceModel, uri: string, shown: ToolModel[], callable: ToolModel[], names: Map<string, ToolTypeNames>, withValidators: boolean, ext: string): string {
  const n = (tool: ToolModel): ToolTypeNames => names.get(tool.name) as ToolTypeNames;
  const output = (tool: ToolModel): string => (n(tool).output === undefined ? 'never' : `Types.${n(tool).output as string}`);
  const check = (tool: ToolModel): string => (n(tool).validateOutput === undefined ? 'undefined' : `validators.${n(tool).validateOutput as string}`);
  const shownMap = shown.length === 0 ? 'never' : '{ [K in keyof ShownTools]: Event<K> }[keyof ShownTools]';
  return [
    `import { ViewBridge, type BridgeOptions, type ContentBlock, type DisplayMode, type HostContext, type JsonObject, type OutputRejected } from './bridge.${ext}';\n`,
    `import { viewOf } from './view-object.${ext}';\n`,
    `import type * as Types from './${TYPES_MODULE}.${ext}';\n`,
    withValidators ? `import * as validators from './validators.${ext}';\n` : '',
    `export { HostError, OutputRejected } from './bridge.${ext}';\n`,
    `export type { ContentBlock, DisplayMode, HostContext } from './bridge.${ext}';\n\n`,
    jsdoc(`The view's resource URI on the server ${JSON.stringify(model.server.name)}.`),
    `export const VIEW_URI = ${stringLiteral(uri)};\n\n`,
    jsdoc("A tool's successful result: `structuredContent` checked against its outputSchema, and the text the model reads."),
    'export type ToolResult<Output> = [Output] extends [never]\n',
    '  ? { content: ContentBlock[]; _meta?: JsonObject }\n',
    '  : { structuredContent: Output; content: ContentBlock[]; _meta?: JsonObject };\n\n',
    jsdoc('Arguments still arriving (`ui/notifications/tool-input-partial`): any field may be missing.'),
    'export type DeepPartial<T> = T extends readonly (infer U)[] ? DeepPartial<U>[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;\n\n',
    jsdoc('The tools whose results this view shows (they link to it), by wire name.'),
    'export interface ShownTools {\n',
    ...shown.map((tool) => `  ${propertyKey(tool.name)}: { input: Types.${n(tool).input}; output: ${output(tool)} };\n`),
    '}\n\n',
    'type Event<K extends keyof ShownTools> = { tool: K; arguments: ShownTools[K]["input"]; partial: DeepPartial<ShownTools[K]["input"]>; result: ToolResult<ShownTools[K]["output"]> };\n',
    `type AnyEvent = ${shownMap};\n`,
    'export type ToolInputEvent = AnyEvent extends infer E ? (E extends Event<infer K> ? { tool: K; arguments: E["arguments"] } : never) : never;\n',
    'export type PartialToolInputEvent = AnyEvent extends infer E ? (E extends Event<infer K> ? { tool: K; arguments: E["partial"] } : never) : never;\n',
    'export type ToolResultEvent = AnyEvent extends infer E ? (E extends Event<infer K> ? { tool: K; result: E["result"] } : never) : never;\n\n',
    jsdoc("The server's tools this page may call through the host (their visibility includes `app`)."),
    'export interface ViewTools {\n',
    ...callable.map((tool) => `${jsdoc(`Calls ${JSON.stringify(tool.name)}.`, '  ')}  ${tool.ids.camel}(args: Types.${n(tool).input}): Promise<ToolResult<${output(tool)}>>;\n`),
    '}\n\n',
    jsdoc('The page connected to its host.'),
    'export interface View {\n',
    '  readonly tools: ViewTools;\n',
    '  /** Theme, display mode, locale, container size…: kept current as the host reports changes. */\n',
    '  readonly hostContext: HostContext;\n',
    '  onToolInput(listener: (event: ToolInputEvent) => void): () => void;\n',
    '  onToolInputPartial(listener: (event: PartialToolInputEvent) => void): () => void;\n',
    '  onToolResult(listener: (event: ToolResultEvent) => void): () => void;\n',
    '  onToolCancelled(listener: (reason: string) => void): () => void;\n',
    '  /** A result the host passed on that breaks its outputSchema: refused, never given to `onToolResult`. */\n',
    '  onRejectedResult(listener: (error: OutputRejected) => void): () => void;\n',
    '  onHostContextChanged(listener: (context: HostContext, changed: Partial<HostContext>) => void): () => void;\n',
    '  onTeardown(callback: (reason: string) => void | Promise<void>): () => void;\n',
    '  openLink(url: string): Promise<void>;\n',
    '  sendMessage(message: string | ContentBlock[]): Promise<void>;\n',
    '  updateModelContext(update: { content?: ContentBlock[]; structuredContent?: JsonObject }): Promise<void>;\n',
    '  requestDisplayMode(mode: DisplayMode): Promise<DisplayMode>;\n',
    '  reportSize(width: number, height: number): void;\n',
    '  close(): void;\n',
    '}\n\n',
    jsdoc(['Connects to the host that frames this page (`ui/initialize`) and returns the typed view.', 'Register event listeners right away: the host sends the tool input just after.']),
    `export async function connectView(options: Partial<BridgeOptions> = {}): Promise<View> {\n`,
    `  const bridge = await ViewBridge.connect({ appInfo: { name: ${stringLiteral(uri)}, version: ${stringLiteral(model.server.version)} }, ...options });\n`,
    '  return viewOf(bridge, {\n',
    `    shown: { ${shown.map((tool) => `${propertyKey(tool.name)}: ${check(tool)}`).join(', ')} },\n`,
    `    callable: { ${callable.map((tool) => `${propertyKey(tool.ids.camel)}: [${stringLiteral(tool.name)}, ${check(tool)}] as const`).join(', ')} },\n`,
    '  }) as unknown as View;\n',
    '}\n',
  ].join('');
}
