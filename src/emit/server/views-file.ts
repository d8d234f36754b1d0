/**
 * `generated/views.ts` (MCP Apps): each manifest view's page, embedded at generation time, and
 * the resource handlers that serve it, so users write no handler for a view. server.ts adds them to
 * the user's handlers (`withViews`); the views' resources/list entries are in the definition.
 */
import type { ServiceModel } from '../../model/service-model.js';
import { VIEW_MIME_TYPE } from '../../model/views.js';
import { jsdoc, jsonValueExpression, stringLiteral } from '../../printer/escape.js';
import type { PlannedFile } from '../../write/planned-file.js';

export const VIEWS_MODULE = 'views';

export function viewsFile(model: ServiceModel): PlannedFile | undefined {
  const views = model.views ?? [];
  if (views.length === 0) return undefined;
  const entries = views.map((view) => {
    const content = { uri: view.uri, mimeType: VIEW_MIME_TYPE, text: view.html, ...(view.ui !== undefined ? { _meta: { ui: view.ui } } : {}) };
    return `  ${stringLiteral(view.uri)}: () => ({ contents: [${jsonValueExpression(content)}] }),\n`;
  });
  const content = [
    "import type { ResourceHandler } from './runtime/index.js';\n\n",
    jsdoc("Each view's page as `resources/read` answers it: the manifest's HTML with its `_meta.ui`."),
    `export const viewHandlers: Readonly<Record<string, ResourceHandler>> = {\n${entries.join('')}};\n\n`,
    jsdoc("The user's handlers with the views' resource handlers added."),
    'export function withViews<H extends object>(handlers: H): H {\n',
    '  const resources = (handlers as { resources?: Readonly<Record<string, ResourceHandler>> }).resources;\n',
    '  return { ...handlers, resources: { ...resources, ...viewHandlers } };\n',
    '}\n',
  ].join('');
  return { path: `generated/${VIEWS_MODULE}.ts`, owner: 'generated', format: 'typescript', content };
}
