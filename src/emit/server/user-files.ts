import type { ServiceModel, ToolModel } from '../../model/service-model.js';
import type { MergeMemo, PlannedFile } from '../../write/planned-file.js';
import type { Insertion } from './merge.js';
import { propertyKey } from '../../printer/names.js';
import { isPlainText, quotedKey, render } from './templates.js';

/**
 * The files the user owns: created once from `templates/`, never overwritten. When the manifest
 * grows, their `merge` hooks add what is missing (a tool's import and registration, a resource's
 * stub); when it shrinks, they report what the user may now delete.
 */

/**
 * Runs a merge hook through the unit cache: its answer (new text and notes) depends only on the
 * file's text and on `wanted` (what the manifest asks the file to hold). A warm run where the file
 * and the manifest's names did not change so never parses the file, nor loads TypeScript.
 */
const HANDLERS_INDEX_MERGE = 'merge:handlers-index';
const SECTION_MERGE = 'merge:section';

/** What a merge of a file holding everything answers: nothing to add, nothing to say. */
const NOTHING_TO_MERGE = JSON.stringify({ text: null, notes: [] });

function mergeInput(wanted: unknown, text: string): string {
  return `${JSON.stringify(wanted)}\0${text}`;
}

async function cachedMerge(
  memo: MergeMemo | undefined,
  kind: string,
  wanted: unknown,
  existing: string,
  notes: string[],
  merge: (notes: string[]) => Promise<string | undefined>,
): Promise<string | undefined> {
  const compute = async (): Promise<string> => {
    const own: string[] = [];
    const text = await merge(own);
    return JSON.stringify({ text: text ?? null, notes: own });
  };
  const answer = JSON.parse(memo ? await memo(kind, mergeInput(wanted, existing), compute) : await compute()) as {
    text: string | null;
    notes: string[];
  };
  notes.push(...answer.notes);
  if (memo && answer.text !== null) {
    // Merges only add: the merged text already holds everything, so merging it again adds nothing
    // and says the same (a tool that left the manifest is still registered). The next run knows.
    await memo(kind, mergeInput(wanted, answer.text), async () => JSON.stringify({ text: null, notes: answer.notes }));
  }
  return answer.text ?? undefined;
}

/**
 * Records that merging `text`, which was just rendered from the file's template for this very
 * manifest (so it registers everything), has nothing to add.
 */
async function nothingToMerge(memo: MergeMemo, kind: string, wanted: unknown, text: string): Promise<void> {
  await memo(kind, mergeInput(wanted, text), async () => NOTHING_TO_MERGE);
}

const HANDLERS_INDEX = 'handlers/index.ts';

export function toolHandlerPath(tool: ToolModel): string {
  return `handlers/tools/${tool.ids.camel}.ts`;
}

export function describe(wire: Record<string, unknown>): string {
  const parts = [wire['title'], wire['description']].filter((v): v is string => typeof v === 'string' && v !== '');
  return [...new Set(parts)].join('\n\n');
}

/** The generator's prettier print width (src/write/render.ts). */
const PRINT_WIDTH = 100;

/**
 * A tool's handler stub. A manifest has one per tool (1,000 for a large server), so the template
 * prints prettier's own layout and the stub is written without prettier: the message's array and
 * object (and a long declaration's parameters) are broken exactly where prettier breaks them. A
 * stub whose declaration would not fit even so, or whose name or message is not plain ASCII
 * (quotes, escapes, wide characters), goes through prettier alone (test/server/stub-format.test.ts holds the two to the same bytes).
 */
export function toolHandlerFile(tool: ToolModel): PlannedFile {
  const path = toolHandlerPath(tool);
  const message = `${tool.name} is not implemented yet: edit ${path}`;
  const fits = (line: string): boolean => line.length <= PRINT_WIDTH;
  const declaration = `export const ${tool.ids.camel}: ToolHandlers['${tool.name}'] = async (`;
  // Past the print width, prettier puts the parameters on lines of their own; past that, it is asked.
  const laidOut = isPlainText(tool.name) && isPlainText(message) && isPlainText(tool.ids.camel) && fits(declaration);
  const skeleton = (): string => {
    const literal = `'${message}'`;
    return render('tool-handler.ts.hbs', {
      doc: [`The tool ${JSON.stringify(tool.name)}.`, describe(tool.wire)].filter((s) => s !== '').join('\n\n'),
      camel: tool.ids.camel,
      name: tool.name,
      message,
      declarationOnOneLine: fits(`${declaration}_input, _context) => {`),
      messageOnOneLine: fits(`    content: [{ type: 'text', text: ${literal} }],`),
      messageInArray: fits(`      { type: 'text', text: ${literal} },`),
    });
  };
  let content: string | undefined;
  return {
    path,
    owner: 'user',
    format: laidOut ? 'none' : 'typescript',
    // Rendered when read: the writer reads it only for a handler it creates, and a server of a
    // thousand tools whose handlers all exist would otherwise render a thousand skeletons per run.
    get content(): string {
      return (content ??= skeleton());
    },
  };
}

/** A group of non-tool handlers with its own user file (`handlers/resources.ts`, …). */
interface Section {
  /** Property of `Handlers`, and the name the section's file exports. */
  property: 'resources' | 'resourceTemplates' | 'resourceLists' | 'prompts';
  path: string;
  module: string;
  template: string;
  /** Partial rendering one entry; also used to add entries to an existing file. */
  entryTemplate: string;
  /** Key and view of each entry the manifest has. */
  entries: { key: string; view: Record<string, string> }[];
  /** `resource`, `resource template`, `prompt`: for messages. */
  noun: string;
}

function sections(model: ServiceModel): Section[] {
  const all: Section[] = [
    {
      property: 'resources',
      path: 'handlers/resources.ts',
      module: './resources.js',
      template: 'resources.ts.hbs',
      entryTemplate: 'resource-entry.hbs',
      noun: 'resource',
      entries: model.resources.map((r) => ({
        key: r.uri,
        view: {
          uri: r.uri,
          doc: describe(r.wire),
          message: `resource ${r.uri} is not implemented yet: edit handlers/resources.ts`,
        },
      })),
    },
    {
      property: 'resourceTemplates',
      path: 'handlers/resource-templates.ts',
      module: './resource-templates.js',
      template: 'resource-templates.ts.hbs',
      entryTemplate: 'resource-template-entry.hbs',
      noun: 'resource template',
      entries: model.resourceTemplates.map((t) => ({
        key: t.uriTemplate,
        view: {
          uriTemplate: t.uriTemplate,
          doc: describe(t.wire),
          message: `resource template ${t.uriTemplate} is not implemented yet: edit handlers/resource-templates.ts`,
        },
      })),
    },
    {
      property: 'resourceLists',
      path: 'handlers/resource-lists.ts',
      module: './resource-lists.js',
      template: 'resource-lists.ts.hbs',
      entryTemplate: 'resource-list-entry.hbs',
      noun: 'listed resource template',
      entries: model.resourceTemplates
        .filter((t) => t.list)
        .map((t) => ({
          key: t.uriTemplate,
          view: { uriTemplate: t.uriTemplate, doc: describe(t.wire) },
        })),
    },
    {
      property: 'prompts',
      path: 'handlers/prompts.ts',
      module: './prompts.js',
      template: 'prompts.ts.hbs',
      entryTemplate: 'prompt-entry.hbs',
      noun: 'prompt',
      entries: model.prompts.map((p) => ({
        key: p.name,
        view: {
          name: p.name,
          doc: describe(p.wire),
          message: `prompt ${p.name} is not implemented yet: edit handlers/prompts.ts`,
        },
      })),
    },
  ];
  return all.filter((s) => s.entries.length > 0);
}

/** Names the collector file binds itself; a tool handler imported there must not take one. */
const INDEX_NAMES = ['Handlers', 'handlers', 'resources', 'resourceTemplates', 'resourceLists', 'prompts'];

/** The name `tool`'s handler is imported under in handlers/index.ts: its camel id unless taken. */
function localName(tool: ToolModel, taken: Set<string>): string {
  let name = tool.ids.camel;
  for (let n = 1; taken.has(name); n++) name = `${tool.ids.camel}Tool${n === 1 ? '' : n}`;
  taken.add(name);
  return name;
}

function toolModule(tool: ToolModel): string {
  return `./tools/${tool.ids.camel}.js`;
}

/**
 * handlers/index.ts, printed in prettier's layout like the stubs: an entry too long for one line
 * breaks after `=>`, and if still too long, after the call's own `=>`. A file with a quoted key (a
 * tool name that is not an identifier), no tools, or an entry too long even so goes through prettier.
 */
export function handlersIndexFile(model: ServiceModel, notes: string[]): PlannedFile {
  // Tools are imported where they are called, so their names never meet the file's own.
  const tools = model.tools.map((tool) => ({ camel: tool.ids.camel, module: toolModule(tool), name: tool.name }));
  const present = sections(model).map((s) => ({ local: s.property, module: s.module }));
  const fits = (line: string): boolean => line.length <= PRINT_WIDTH;
  const call = (t: (typeof tools)[number]): string => `import('${t.module}').then((m) => m.${t.camel}(input, context)),`;
  const entries = tools.map((t) => ({
    ...t,
    oneLine: fits(`    ${quotedKey(t.name)}: (input, context) => ${call(t)}`),
    twoLines: fits(`      ${call(t)}`),
  }));
  // The longest layout: the call's arrow broken too, each of its lines within the width.
  const threeLines = (t: (typeof tools)[number]): boolean =>
    fits(`      import('${t.module}').then((m) =>`) && fits(`        m.${t.camel}(input, context),`);
  // A quoted key is laid out too when it is plain text that prettier keeps quoted (GitHub's names
  // have dashes); not one that starts with a digit (a number to prettier) nor `__proto__` (computed).
  const plainKey = (name: string): boolean => {
    const key = quotedKey(name);
    return key === name || (key === `'${name}'` && !/^[0-9]/.test(name));
  };
  const laidOut =
    tools.length > 0 &&
    entries.every(
      (t) => plainKey(t.name) && isPlainText(t.module) && fits(`    ${quotedKey(t.name)}: (input, context) =>`) && (t.twoLines || threeLines(t)),
    );
  let content: string | undefined;
  return {
    path: HANDLERS_INDEX,
    owner: 'user',
    format: laidOut ? 'none' : 'typescript',
    // Rendered when read, as the tool skeletons: only for a file the writer creates.
    get content(): string {
      return (content ??= render('handlers-index.ts.hbs', { tools: entries, sections: present }));
    },
    merge: (existing, memo) =>
      cachedMerge(memo, HANDLERS_INDEX_MERGE, { tools, present }, existing, notes, (own) => mergeHandlersIndex(model, existing, own)),
    created: (text, memo) => nothingToMerge(memo, HANDLERS_INDEX_MERGE, { tools, present }, text),
  };
}

async function mergeHandlersIndex(model: ServiceModel, existing: string, notes: string[]): Promise<string | undefined> {
  // ts-morph (and TypeScript with it) is loaded only when a file really has to be parsed.
  const { applyInsertions, exportedObject, importInsertion, parse, propertyInsertion, propertyNames, propertyObject, topLevelNames } =
    await import('./merge.js');
  const file = parse(existing);
  const handlers = exportedObject(file, 'handlers');
  const tools = handlers && propertyObject(handlers, 'tools');
  if (!handlers || !tools) {
    const missing = model.tools.map((t) => t.name);
    notes.push(
      `${HANDLERS_INDEX}: found no \`handlers = { tools: { … } }\` object to update; make sure it registers every tool (${missing.join(', ')}).`,
    );
    return undefined;
  }
  const registered = propertyNames(tools);
  const wanted = new Set(model.tools.map((t) => t.name));
  for (const name of registered) {
    if (!wanted.has(name)) {
      notes.push(
        `tool ${JSON.stringify(name)} is no longer in the manifest: ${HANDLERS_INDEX} still registers it (a type error until you remove that line), and its handler file was left in place.`,
      );
    }
  }

  const taken = topLevelNames(file);
  for (const name of INDEX_NAMES) taken.add(name);
  const imports: string[] = [];
  const toolEntries: string[] = [];
  for (const tool of model.tools) {
    if (registered.has(tool.name)) continue;
    const local = localName(tool, taken);
    imports.push(`import { ${tool.ids.camel === local ? local : `${tool.ids.camel} as ${local}`} } from ${quote(toolModule(tool))};`);
    toolEntries.push(`${propertyKey(tool.name)}: ${local}`);
  }
  const sectionEntries: string[] = [];
  const present = propertyNames(handlers);
  for (const section of sections(model)) {
    if (present.has(section.property)) continue;
    if (!topLevelNames(file).has(section.property)) imports.push(`import { ${section.property} } from ${quote(section.module)};`);
    sectionEntries.push(section.property);
  }
  const insertions = [
    importInsertion(file, imports),
    propertyInsertion(tools, toolEntries),
    propertyInsertion(handlers, sectionEntries),
  ].filter((i): i is Insertion => i !== undefined);
  return insertions.length === 0 ? undefined : applyInsertions(existing, insertions);
}

/** Module specifiers are our own ASCII paths; single quotes match the rest of the file. */
function quote(specifier: string): string {
  return `'${specifier}'`;
}

export function sectionFiles(model: ServiceModel, notes: string[]): PlannedFile[] {
  return sections(model).map((section): PlannedFile => {
    let content: string | undefined;
    return {
      path: section.path,
      owner: 'user',
      format: 'typescript',
      // Rendered when read: only for a file the writer creates.
      get content(): string {
        return (content ??= render(section.template, { [viewKey(section)]: section.entries.map((e) => e.view) }));
      },
      merge: (existing: string, memo?: MergeMemo) =>
        cachedMerge(memo, SECTION_MERGE, section, existing, notes, (own) => mergeSection(section, existing, own)),
      created: (text: string, memo: MergeMemo) => nothingToMerge(memo, SECTION_MERGE, section, text),
    };
  });
}

function viewKey(section: Section): string {
  return section.property === 'resourceTemplates' ? 'templates' : section.property === 'resourceLists' ? 'lists' : section.property;
}

async function mergeSection(section: Section, existing: string, notes: string[]): Promise<string | undefined> {
  const { applyInsertions, exportedObject, parse, propertyInsertion, propertyNames } = await import('./merge.js');
  const file = parse(existing);
  const object = exportedObject(file, section.property);
  if (!object) {
    notes.push(
      `${section.path}: found no \`${section.property} = { … }\` object to update; make sure it handles every ${section.noun} (${section.entries.map((e) => e.key).join(', ')}).`,
    );
    return undefined;
  }
  const present = propertyNames(object);
  const wanted = new Set(section.entries.map((e) => e.key));
  for (const key of present) {
    if (!wanted.has(key)) {
      notes.push(
        `${section.noun} ${JSON.stringify(key)} is no longer in the manifest: ${section.path} still handles it (a type error until you remove it).`,
      );
    }
  }
  const added = section.entries
    .filter((e) => !present.has(e.key))
    .map((e) => entryText(render(section.entryTemplate, e.view)));
  const insertion = propertyInsertion(object, added);
  return insertion === undefined ? undefined : applyInsertions(existing, [insertion]);
}

/** A rendered entry partial (two-space indented, ending in `},\n`) as one property for propertyInsertion. */
function entryText(rendered: string): string {
  return rendered
    .replace(/,\n$/, '')
    .split('\n')
    .map((line) => line.replace(/^ {2}/, ''))
    .join('\n');
}
