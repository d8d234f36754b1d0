/**
 * The `views` section (MCP Apps) and the tools that link to views: the rules a JSON Schema cannot
 * say (a link to a view that is not there, origins a host could not put in a CSP, one URI for two
 * resources), and the pages themselves, read from disk so a missing one stops generation at load.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic } from './diagnostics.js';
import { closest } from './manifest-schema.js';
import { isSchemaObject as isObject } from '../schema/keywords.js';
import { diagnosticAt, joinPointer } from './yaml-positions.js';
import type { SourceDocument } from './yaml-positions.js';

type JsonObject = { [key: string]: unknown };

/** The manifest key the loader fills with each view's page (never written by users: the schema refuses it). */
export const VIEW_PAGE_KEY = 'page';

/** A page larger than this is not a view a host would load. */
export const MAX_VIEW_BYTES = 4 * 1024 * 1024;

const CSP_FIELDS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

/**
 * An origin as a host writes it into a CSP source list: a scheme a page can reach (http, https, ws,
 * wss), a host (optionally `*.` for its subdomains) and a port, nothing after.
 */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*)(:[0-9]{1,5})?$/;

function list(value: unknown): [number, JsonObject][] {
  return Array.isArray(value) ? [...value.entries()].filter((e): e is [number, JsonObject] => isObject(e[1])) : [];
}

function originProblem(origin: string): string | undefined {
  if (ORIGIN.test(origin) && URL.canParse(origin.replace('*.', 'x.'))) return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]+[/?#]/i.test(origin)) return 'has a path, query or fragment: a CSP source here is an origin alone';
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(origin)) return 'has no scheme';
  if (!/^(https?|wss?):/i.test(origin)) return 'uses a scheme other than http, https, ws or wss';
  return 'is not an origin';
}

/** The rules below and the pages read: every problem of the section at once. */
export async function checkViews(
  doc: SourceDocument,
  manifestPath: string,
  options: { allowOutside: boolean; inputFiles?: Set<string> },
): Promise<{ problems: Diagnostic[]; pages: Map<number, string> }> {
  const read = await readViewPages(doc, manifestPath, options);
  return { problems: [...checkViewRules(doc), ...read.problems], pages: read.pages };
}

/** The document with each view carrying its page (the model embeds it in the server). */
export function withViewPages(document: JsonObject, pages: Map<number, string>): JsonObject {
  const views = document['views'];
  if (!Array.isArray(views)) return document;
  return { ...document, views: views.map((view, index) => (isObject(view) ? { ...view, [VIEW_PAGE_KEY]: pages.get(index) } : view)) };
}

/** Checks on the raw manifest: unique view URIs, well-formed origins, and links to views that exist. */
export function checkViewRules(doc: SourceDocument): Diagnostic[] {
  const raw = doc.value as JsonObject;
  const problems: Diagnostic[] = [];
  const views = list(raw['views']);
  const taken = new Map<string, string>();
  for (const [index, resource] of list(raw['resources'])) if (typeof resource['uri'] === 'string') taken.set(resource['uri'], `resources/${index}`);
  for (const [index, view] of views) {
    const uri = view['uri'];
    if (typeof uri === 'string') {
      const earlier = taken.get(uri);
      if (earlier !== undefined) problems.push(diagnosticAt(doc, joinPointer('/views', index, 'uri'), `duplicate resource URI '${uri}' (first at ${earlier})`, 'a view is served as a resource: give it a URI of its own'));
      else taken.set(uri, `views/${index}`);
    }
    const csp = view['csp'];
    if (!isObject(csp)) continue;
    for (const field of CSP_FIELDS) {
      const origins = csp[field];
      if (!Array.isArray(origins)) continue;
      origins.forEach((origin, at) => {
        if (typeof origin !== 'string') return;
        const problem = originProblem(origin);
        if (problem !== undefined) {
          problems.push(diagnosticAt(doc, joinPointer('/views', index, 'csp', field, at), `'${origin}' ${problem}`, 'write an origin like https://api.example.com, https://*.example.com or wss://live.example.com:8443'));
        }
      });
    }
  }
  const known = views.map(([, view]) => view['uri']).filter((uri): uri is string => typeof uri === 'string');
  for (const [index, tool] of list(raw['tools'])) {
    const meta = tool['_meta'];
    if (isObject(meta) && (meta['ui'] !== undefined || meta['ui/resourceUri'] !== undefined)) {
      const key = meta['ui'] !== undefined ? 'ui' : 'ui/resourceUri';
      problems.push(diagnosticAt(doc, joinPointer('/tools', index, '_meta', key), `_meta.${key} is written by mcp-gen from the tool's view and visibility`, 'link the view with `view: ui://…` and set `visibility`; mcp-gen checks both'));
    }
    const view = tool['view'];
    if (typeof view !== 'string' || known.includes(view)) continue;
    const near = closest(view, known);
    const hint = near !== undefined ? `did you mean '${near}'?` : known.length === 0 ? 'declare the view under `views`' : `the manifest's views: ${known.join(', ')}`;
    problems.push(diagnosticAt(doc, joinPointer('/tools', index, 'view'), `tool links to view '${view}', which the manifest does not declare`, hint));
  }
  return problems;
}

/**
 * Reads each view's page: the file `html` names, or the `index.html` of the folder it names (what
 * a bundler such as Vite writes). Pages stay inside the manifest's folder unless `allowOutside`.
 */
export async function readViewPages(
  doc: SourceDocument,
  manifestPath: string,
  options: { allowOutside: boolean; inputFiles?: Set<string> },
): Promise<{ problems: Diagnostic[]; pages: Map<number, string> }> {
  const problems: Diagnostic[] = [];
  const pages = new Map<number, string>();
  const base = path.dirname(path.resolve(manifestPath));
  for (const [index, view] of list((doc.value as JsonObject)['views'])) {
    const html = view['html'];
    if (typeof html !== 'string' || html === '') continue;
    const pointer = joinPointer('/views', index, 'html');
    const named = path.resolve(base, html);
    const relative = path.relative(base, named);
    if (!options.allowOutside && (relative.startsWith('..') || path.isAbsolute(relative))) {
      problems.push(diagnosticAt(doc, pointer, `view page '${html}' is outside the manifest's folder`, 'move it beside the manifest, or pass --allow-outside-refs'));
      continue;
    }
    let file = named;
    try {
      if ((await stat(named)).isDirectory()) file = path.join(named, 'index.html');
    } catch {
      // Reported below, with the file's own name.
    }
    options.inputFiles?.add(file);
    try {
      const size = (await stat(file)).size;
      if (size > MAX_VIEW_BYTES) {
        problems.push(diagnosticAt(doc, pointer, `view page '${html}' is larger than ${MAX_VIEW_BYTES} bytes`));
        continue;
      }
      pages.set(index, await readFile(file, 'utf8'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const shown = path.relative(base, file) || html;
      problems.push(
        code === 'ENOENT'
          ? diagnosticAt(doc, pointer, `view page '${shown}' not found`, file === named ? 'write the page there, or build it (a folder holds the bundle as index.html)' : 'build the view first: the folder should hold the bundle as index.html')
          : diagnosticAt(doc, pointer, `cannot read view page '${shown}': ${(error as Error).message}`),
      );
    }
  }
  return { problems, pages };
}
