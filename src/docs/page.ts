/**
 * `mcp-gen docs`: one static HTML page describing a server (tools, prompts, resources, resource
 * templates) for the people who will call it. It works from `file://`, makes no request, and runs
 * only its own inlined script (a hash-pinned Content-Security-Policy). Every piece of text from the
 * manifest or the server goes through `htmlText`: descriptions are text, never markup.
 */
import { createHash } from 'node:crypto';
import type { PromptModel, ResourceModel, ResourceTemplateModel, ServiceModel, ToolModel } from '../model/service-model.js';
import { callableFromViews, viewOfTool, visibleToModelOf } from '../model/views.js';
import { htmlText } from '../printer/escape.js';
import { SCRIPT, STYLE } from './assets.js';
import { schemaRows, type SchemaRow } from './schema-rows.js';

export interface DocsPageOptions {
  /** Who made the page, e.g. `mcp-gen 0.1.0`, shown in the footer. */
  generator: string;
  /** An example of a tool's arguments or structuredContent (the mock's generator), or undefined for none. */
  example?: (tool: ToolModel, which: 'input' | 'output') => unknown;
}

const h = htmlText;

export function renderDocsPage(model: ServiceModel, options: DocsPageOptions): string {
  const title = model.server.title ?? model.server.name;
  const sections = [
    group('Tools', 'tool', model.tools, (tool) => toolSection(tool, options)),
    group('Prompts', 'prompt', model.prompts, promptSection),
    group('Resources', 'resource', model.resources, resourceSection),
    group('Resource templates', 'template', model.resourceTemplates, templateSection),
  ];
  const csp = [
    "default-src 'none'",
    `script-src '${sha256(SCRIPT)}'`,
    `style-src '${sha256(STYLE)}'`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${h(title)} — MCP server reference</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${h(title)}</h1>
<span class="version">${h(model.server.name)} ${h(model.server.version)} · MCP ${model.protocolVersions.map(h).join(', ')}</span>
<button id="theme" type="button" aria-label="Switch between light and dark">Light / dark</button>
</header>
<div class="layout">
<nav>
<input id="search" type="search" placeholder="Search tools, prompts, resources" aria-label="Search">
<p id="count" class="muted"></p>
${sections.map((s) => s.nav).join('\n')}
</nav>
<main>
${model.server.instructions !== undefined ? `<p class="desc">${h(model.server.instructions)}</p>\n` : ''}${authSection(model)}${sections.map((s) => s.body).join('\n')}
<p class="muted">Made by ${h(options.generator)}.</p>
</main>
</div>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

interface Rendered {
  nav: string;
  body: string;
}

interface Section {
  /** The visible name (wire name). */
  name: string;
  /** Lower-case text the search box matches. */
  search: string;
  html: string;
}

/** One kind of item: its nav list and its sections. Element ids are positional, never from names. */
function group<T>(heading: string, kind: string, items: readonly T[], render: (item: T) => Section): Rendered {
  if (items.length === 0) return { nav: '', body: '' };
  const sections = items.map(render);
  const id = (index: number): string => `${kind}-${index + 1}`;
  const nav = `<h2>${h(heading)} (${items.length})</h2>\n${sections.map((s, i) => `<a href="#${id(i)}" data-for="${id(i)}"><code>${h(s.name)}</code></a>`).join('\n')}`;
  const body = `<h2>${h(heading)}</h2>\n${sections
    .map((s, i) => `<section class="item" id="${id(i)}" data-kind="${kind}" data-search="${h(s.search)}">\n${s.html}\n</section>`)
    .join('\n')}`;
  return { nav, body };
}

function text(wire: { [key: string]: unknown }, key: string): string | undefined {
  const value = wire[key];
  return typeof value === 'string' ? value : undefined;
}

function searchText(...parts: (string | undefined)[]): string {
  return parts.filter((p) => p !== undefined).join(' ').toLowerCase();
}

function heading(name: string, title: string | undefined, badges: string[]): string {
  const shownTitle = title !== undefined && title !== name ? ` <span class="muted">${h(title)}</span>` : '';
  return `<h3><code>${h(name)}</code>${shownTitle}${badges.map((b) => `<span class="badge">${h(b)}</span>`).join('')}</h3>`;
}

function description(value: string | undefined): string {
  return value === undefined ? '' : `<p class="desc">${h(value)}</p>`;
}

function toolSection(tool: ToolModel, options: DocsPageOptions): Section {
  const title = text(tool.wire, 'title');
  const about = text(tool.wire, 'description');
  const badges: string[] = [];
  const annotations = tool.wire['annotations'];
  if (typeof annotations === 'object' && annotations !== null) {
    const a = annotations as { [key: string]: unknown };
    if (a['readOnlyHint'] === true) badges.push('read-only');
    if (a['destructiveHint'] === true) badges.push('destructive');
    if (a['idempotentHint'] === true) badges.push('idempotent');
    if (a['openWorldHint'] === true) badges.push('open world');
  }
  const execution = tool.wire['execution'];
  const taskSupport = typeof execution === 'object' && execution !== null ? (execution as { [key: string]: unknown })['taskSupport'] : undefined;
  if (typeof taskSupport === 'string' && taskSupport !== 'forbidden') badges.push(`task: ${taskSupport}`);
  const headers = new Map((tool.headers ?? []).map((m) => [m.path.join('.'), `Mcp-Param-${m.header}`]));
  const parts = [heading(tool.name, title, badges), description(about), scopesLine(tool.scopes), viewLine(tool)];
  parts.push('<h4>Input</h4>', table(schemaRows(tool.inputSchema, headers), 'No arguments.'));
  if (tool.outputSchema !== undefined) parts.push('<h4>Output (structuredContent)</h4>', table(schemaRows(tool.outputSchema), 'An empty object.'));
  else parts.push('<h4>Output</h4>', '<p class="muted">Content only (no outputSchema).</p>');
  const input = options.example?.(tool, 'input');
  const output = tool.outputSchema !== undefined ? options.example?.(tool, 'output') : undefined;
  if (input !== undefined) parts.push('<h4>Example arguments</h4>', `<pre>${h(JSON.stringify(input, null, 2))}</pre>`);
  if (output !== undefined) parts.push('<h4>Example structuredContent</h4>', `<pre>${h(JSON.stringify(output, null, 2))}</pre>`);
  const argumentNames = schemaRows(tool.inputSchema).map((r) => r.path);
  return { name: tool.name, search: searchText(tool.name, title, about, ...argumentNames, ...(tool.scopes ?? [])), html: parts.filter((p) => p !== '').join('\n') };
}

function promptSection(prompt: PromptModel): Section {
  const title = text(prompt.wire, 'title');
  const about = text(prompt.wire, 'description');
  const rows: SchemaRow[] = prompt.arguments.map((a) => ({
    path: a.name,
    depth: 0,
    type: 'string',
    required: a.required,
    ...(a.description !== undefined ? { description: a.description } : {}),
    details: enumDetails(a.enum),
  }));
  const html = [heading(prompt.name, title, []), description(about), scopesLine(prompt.scopes), '<h4>Arguments</h4>', table(rows, 'No arguments.')].filter((p) => p !== '').join('\n');
  return { name: prompt.name, search: searchText(prompt.name, title, about, ...prompt.arguments.map((a) => a.name), ...(prompt.scopes ?? [])), html };
}

function resourceSection(resource: ResourceModel): Section {
  const title = text(resource.wire, 'title');
  const about = text(resource.wire, 'description');
  const mime = text(resource.wire, 'mimeType');
  const html = [
    heading(resource.name, title, mime !== undefined ? [mime] : []),
    `<p><code>${h(resource.uri)}</code></p>`,
    description(about),
    scopesLine(resource.scopes),
  ].filter((p) => p !== '').join('\n');
  return { name: resource.name, search: searchText(resource.name, title, about, resource.uri, ...(resource.scopes ?? [])), html };
}

function templateSection(template: ResourceTemplateModel): Section {
  const title = text(template.wire, 'title');
  const about = text(template.wire, 'description');
  const mime = text(template.wire, 'mimeType');
  // Each variable with the values the manifest lists for it (also what completion offers).
  const rows: SchemaRow[] = template.variables.map((v) => ({
    path: v,
    depth: 0,
    type: 'string',
    required: false,
    details: enumDetails(template.variableEnums !== undefined && Object.hasOwn(template.variableEnums, v) ? template.variableEnums[v] : undefined),
  }));
  const html = [
    heading(template.name, title, mime !== undefined ? [mime] : []),
    `<p><code>${h(template.uriTemplate)}</code></p>`,
    description(about),
    scopesLine(template.scopes),
    template.variables.length > 0 ? `<h4>Variables</h4>\n${table(rows, '')}` : '',
  ].filter((p) => p !== '').join('\n');
  return { name: template.name, search: searchText(template.name, title, about, template.uriTemplate, ...(template.scopes ?? [])), html };
}

/** `one of "a", "b"`, as the schema tables say it, for a prompt argument's or template variable's `enum`. */
function enumDetails(values: readonly string[] | undefined): string[] {
  return values === undefined ? [] : [`one of ${values.map((v) => JSON.stringify(v)).join(', ')}`];
}

/** The OAuth scopes a token needs for one item (manifest `scopes`), or nothing. */
/** MCP Apps: the view a tool's results are shown in, and who may call it. */
function viewLine(tool: ToolModel): string {
  const view = viewOfTool(tool);
  const modelOnly = !callableFromViews(tool);
  const appOnly = !visibleToModelOf(tool);
  if (view === undefined && !modelOnly && !appOnly) return '';
  const shown = view === undefined ? 'No view' : `Shown in the view <code>${h(view)}</code>`;
  const who = appOnly ? '; called by views only, never by the model' : modelOnly ? '; views may not call it' : '';
  return `<p class="view">${shown}${who}</p>`;
}

function scopesLine(scopes: readonly string[] | undefined): string {
  if (scopes === undefined || scopes.length === 0) return '';
  return `<p class="scopes">Needs the scope${scopes.length === 1 ? '' : 's'} ${scopes.map((s) => `<code>${h(s)}</code>`).join(' ')}</p>`;
}

/** The manifest's `auth` section: what a caller over HTTP needs before anything else works. */
function authSection(model: ServiceModel): string {
  const auth = model.auth;
  if (auth === undefined) return '';
  const codes = (values: readonly string[]): string => values.map((v) => `<code>${h(v)}</code>`).join(', ');
  const lines = [
    `<p>Over HTTP, every request needs an OAuth 2.1 access token (<code>Authorization: Bearer …</code>) for the resource <code>${h(auth.resource)}</code>, issued by ${codes(auth.authorizationServers)}. Without one the server answers 401 and points to its metadata (<code>/.well-known/oauth-protected-resource</code>). Stdio is served without tokens.</p>`,
  ];
  if (auth.scopes !== undefined && auth.scopes.length > 0) lines.push(`<p>Every request needs the scope${auth.scopes.length === 1 ? '' : 's'} ${codes(auth.scopes)}; the items below name the scopes they need besides.</p>`);
  if (auth.scopesSupported !== undefined && auth.scopesSupported.length > 0) lines.push(`<p class="muted">Scopes supported: ${codes(auth.scopesSupported)}</p>`);
  return `<section class="auth" id="authorization">\n<h2>Authorization</h2>\n${lines.join('\n')}\n</section>\n`;
}

function table(rows: readonly SchemaRow[], empty: string): string {
  if (rows.length === 0) return `<p class="muted">${h(empty)}</p>`;
  const hasHeaders = rows.some((r) => r.header !== undefined);
  const head = `<tr><th>Name</th><th>Type</th><th>Description</th><th>Details</th>${hasHeaders ? '<th>HTTP header</th>' : ''}</tr>`;
  const body = rows.map((r) => {
    const indent = r.depth > 0 ? `<span class="muted">${'· '.repeat(r.depth)}</span>` : '';
    const name = `${indent}<code>${h(r.path)}</code>${r.required ? ' <span class="req" title="required">*</span>' : ''}`;
    const header = hasHeaders ? `<td>${r.header !== undefined ? `<code>${h(r.header)}</code>` : ''}</td>` : '';
    return `<tr><td>${name}</td><td><code>${h(r.type)}</code></td><td class="desc">${h(r.description ?? '')}</td><td>${r.details.map(h).join('<br>')}</td>${header}</tr>`;
  });
  const legend = rows.some((r) => r.required) ? '\n<p class="muted"><span class="req">*</span> required</p>' : '';
  return `<table>\n<thead>${head}</thead>\n<tbody>\n${body.join('\n')}\n</tbody>\n</table>${legend}`;
}

/** A CSP source for an inline element's exact text. */
function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}
