/**
 * What a manifest's `http` bindings add to a generated server: `generated/proxy.ts` (the upstream
 * and every binding, rewritten on each run) and, for each proxied tool, a handler stub that calls
 * it. The stub is the user's file like any handler: editing it overrides the generated proxy.
 */
import type { ServiceModel, ToolModel } from '../../model/service-model.js';
import { jsonValueExpression, stringLiteral } from '../../printer/escape.js';
import type { PlannedFile } from '../../write/planned-file.js';
import { isPlainText, render } from './templates.js';

/** The generator's prettier print width (src/write/render.ts). */
const PRINT_WIDTH = 100;

export function hasProxiedTools(model: ServiceModel): boolean {
  return model.tools.some((tool) => tool.http !== undefined);
}

/** The runtime's view of a binding: the manifest's, plus whether the tool has an outputSchema. */
function runtimeBinding(tool: ToolModel): Record<string, unknown> {
  return { ...tool.http, structured: tool.outputSchema !== undefined };
}

/**
 * `generated/proxy.ts`. The settings and each binding are embedded as `JSON.parse("…")` (a tool
 * named `__proto__` stays a key, and parsing is quicker than an object literal): one line per tool,
 * in manifest order, so a changed binding is a one-line diff.
 */
export function proxyFile(model: ServiceModel): PlannedFile {
  const proxied = model.tools.filter((tool) => tool.http !== undefined);
  const { source: _source, ...settings } = model.upstream ?? { baseUrl: '' };
  const names = proxied.map((tool) => stringLiteral(tool.name));
  const lines = [
    "import { createUpstream, type HttpBinding, type UpstreamSettings } from './runtime/proxy/index.js';",
    "import type { ToolResult } from './runtime/api.js';",
    "import type { HandlerContext, Tools } from './types.js';",
    '',
    '/** The tools of the manifest with an `http` binding. */',
    `export type ProxiedTool = ${names.join(' | ')};`,
    '',
    '/**',
    ' * The upstream API (manifest `upstream`). Credentials and base URL variables are read from the',
    ' * environment variables it names, on each call; nothing of the MCP request is ever forwarded.',
    ' */',
    `export const upstream = createUpstream(${jsonValueExpression(settings)} as UpstreamSettings);`,
    '',
    '/** Each proxied tool\'s binding (manifest `tools[].http`). */',
    'const BINDINGS: ReadonlyMap<string, HttpBinding> = new Map<string, HttpBinding>([',
    ...proxied.map((tool) => `  [${stringLiteral(tool.name)}, ${jsonValueExpression(runtimeBinding(tool))}],`),
    ']);',
    '',
    '/**',
    " * Calls `name`'s upstream operation with the tool's validated input: a 2xx JSON answer comes back",
    ' * as `structuredContent` (checked against the outputSchema by the server), anything else as',
    ' * content, and an upstream error status as a tool error with the status and an excerpt.',
    ' */',
    'export function proxy<Name extends ProxiedTool>(',
    '  name: Name,',
    "  input: Tools[Name]['input'],",
    '  context: HandlerContext,',
    "): Promise<ToolResult<Tools[Name]['output']>> {",
    "  return upstream.call(BINDINGS.get(name) as HttpBinding, input, context) as Promise<ToolResult<Tools[Name]['output']>>;",
    '}',
    '',
  ];
  return { path: 'generated/proxy.ts', owner: 'generated', format: 'none', content: lines.join('\n') };
}

/** The handler stub of a proxied tool: one call of the generated proxy, in prettier's layout when the emitter can print it. */
export function proxyHandlerFile(tool: ToolModel, path: string, description: string): PlannedFile {
  const http = tool.http as NonNullable<ToolModel['http']>;
  const declaration = `export const ${tool.ids.camel}: ToolHandlers['${tool.name}'] =`;
  const head = `${declaration} (input, context) =>`;
  const call = `proxy('${tool.name}', input, context);`;
  const fits = (line: string): boolean => line.length <= PRINT_WIDTH;
  // prettier's layouts: all on one line; broken after the arrow; when even the declaration with
  // its opening parenthesis is too long, the parameters one per line; when that does not fit
  // either, broken after `=` (and after the arrow too when the function does not fit on a line),
  // however long the declaration (prettier cannot break it).
  const layout = !isPlainText(tool.name)
    ? undefined
    : fits(`${head} ${call}`)
      ? 'oneLine'
      : fits(head)
        ? fits(`  ${call}`) ? 'afterArrow' : undefined
        : fits(`${declaration} (`)
          ? fits(`) => ${call}`) ? 'parameters' : undefined
          : fits(`  (input, context) => ${call}`)
            ? 'afterEquals'
            : fits(`    ${call}`) ? 'afterEqualsAndArrow' : undefined;
  const doc = [
    `The tool ${JSON.stringify(tool.name)}.`,
    description,
    `Calls ${http.method} ${http.path} on the upstream API (manifest \`http\`, generated/proxy.ts).\nChange this function to adapt what it sends or returns: regenerating never overwrites it.`,
  ].filter((s) => s !== '');
  const view = {
    doc: doc.join('\n\n'),
    camel: tool.ids.camel,
    name: tool.name,
    oneLine: layout === 'oneLine',
    parameters: layout === 'parameters',
    afterEquals: layout === 'afterEquals',
    afterEqualsAndArrow: layout === 'afterEqualsAndArrow',
  };
  let content: string | undefined;
  return {
    path,
    owner: 'user',
    format: layout !== undefined ? 'none' : 'typescript',
    get content(): string {
      return (content ??= render('proxy-handler.ts.hbs', view));
    },
  };
}
