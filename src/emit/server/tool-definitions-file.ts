/**
 * `generated/tool-definitions.ts`: the tools' `tools/list` entries, each large shared schema piece
 * written once. The bundler copies every definition a tool schema reaches into that schema's own
 * `$defs` (so each schema on the wire stands alone), and a large API has hundreds of tools holding
 * the same copies. Here each entry is cut at its schemas' definitions and root keywords: the text
 * between them stays the tool's own, and a piece that several entries hold (and that weighs enough
 * to be worth it) is written once in a table, keyed by digest. The runtime asks for an entry's
 * text when a `tools/list` page first needs it, and the module joins its pieces then: the bytes on
 * the wire are those of `JSON.stringify` of the entry, as when the text was embedded whole.
 *
 * A server none of whose pieces is worth sharing gets no such module: its `server.ts` embeds each
 * entry as before (server-file.ts).
 */
import type { ServiceModel } from '../../model/service-model.js';
import { stringLiteral } from '../../printer/escape.js';
import { prettierString } from '../../printer/prettier-layout.js';
import type { UnitMemo } from '../../printer/format.js';
import { schemaDigest } from '../../schema/digest.js';
import { defineOwn, isSchemaObject, type SchemaObject } from '../../schema/keywords.js';
import { sha256Hex } from '../../schema/sha256.js';

type Tool = ServiceModel['tools'][number];

/** The module, relative to `generated/`, without extension. */
export const TOOL_DEFINITIONS_MODULE = 'tool-definitions';

/**
 * A piece is stored once when its copies beyond the first would weigh at least this many
 * characters: below it, the table entry and the references cost about what they save.
 */
export const SHARE_THRESHOLD = 1024;

/**
 * One tool's entry as JSON text cut at its schema pieces: literal text at even places, the key of a
 * piece at odd ones (`components` holds their texts). Joined, they are `JSON.stringify(entry)`.
 */
export interface DefinitionPieces {
  pieces: string[];
  components: Record<string, string>;
}

/** Stands in for a piece while the entry is written out; a NUL keeps it from meeting real text (and the join is checked). */
const MARK = '\u0000mcp-gen-component\u0000';
const MARKED = /"\\u0000mcp-gen-component\\u0000(\d+)"/;

/** Cuts a tool's `tools/list` entry at the pieces of its input and output schemas (`withMarks`). */
export function definitionPieces(wire: Readonly<Record<string, unknown>>): DefinitionPieces {
  const whole = JSON.stringify(wire);
  const texts: string[] = [];
  const marked: Record<string, unknown> = { ...wire };
  for (const key of ['inputSchema', 'outputSchema']) {
    const schema = wire[key];
    if (isSchemaObject(schema)) marked[key] = withMarks(schema, texts);
  }
  if (texts.length === 0) return { pieces: [whole], components: {} };
  const split = JSON.stringify(marked).split(MARKED);
  const components: Record<string, string> = {};
  const pieces = split.map((piece, index) => {
    if (index % 2 === 0) return piece;
    const text = texts[Number(piece)] as string;
    const digest = componentKey(text);
    components[digest] = text;
    return digest;
  });
  // A text that happened to hold the mark would cut wrong: the entry then stays one piece.
  if (joinPieces(pieces, components) !== whole) return { pieces: [whole], components: {} };
  return { pieces, components };
}

/**
 * The schema with each of its root definitions, and each of its other root keywords' values long
 * enough to be worth it, replaced by a mark naming its place in `texts`. The keywords count too:
 * an importer inlines a shared definition as the root of the tools that return it (GitHub's
 * `repos/get` returns `full-repository`), so hundreds of roots hold the same `properties`.
 */
function withMarks(schema: SchemaObject, texts: string[]): SchemaObject {
  const copy: SchemaObject = {};
  const mark = (text: string): string => `${MARK}${texts.push(text) - 1}`;
  for (const [key, value] of Object.entries(schema)) {
    if ((key === '$defs' || key === 'definitions') && isSchemaObject(value)) {
      const marked: SchemaObject = {};
      for (const [name, definition] of Object.entries(value)) defineOwn(marked, name, mark(JSON.stringify(definition)));
      defineOwn(copy, key, marked);
      continue;
    }
    const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : undefined;
    defineOwn(copy, key, text !== undefined && text.length >= MIN_PIECE ? mark(text) : value);
  }
  return copy;
}

/** A root keyword's value shorter than this stays in the entry's own text: it could not reach `SHARE_THRESHOLD` often enough to matter. */
const MIN_PIECE = 64;

/** A piece's key in the table: the first 64 bits of its text's SHA-256 (a GitHub-size server has a few thousand pieces: two never meet). */
function componentKey(text: string): string {
  return sha256Hex(text).slice(0, 16);
}

export function joinPieces(pieces: readonly string[], components: Readonly<Record<string, string>>): string {
  return pieces.map((piece, index) => (index % 2 === 0 ? piece : components[piece])).join('');
}

/** Each piece an entry holds, in order, as its key and the length of its text: what choosing the shared ones needs. */
export type ComponentSummary = [key: string, length: number][];

export function componentSummary(tool: DefinitionPieces): ComponentSummary {
  const summary: ComponentSummary = [];
  for (let i = 1; i < tool.pieces.length; i += 2) {
    const key = tool.pieces[i] as string;
    summary.push([key, (tool.components[key] as string).length]);
  }
  return summary;
}

/** The pieces worth storing once, sorted: held in two places or more, with the copies beyond the first weighing `SHARE_THRESHOLD` or more. */
export function sharedKeys(summaries: readonly ComponentSummary[]): string[] {
  const uses = new Map<string, { count: number; length: number }>();
  for (const summary of summaries) {
    for (const [key, length] of summary) {
      const known = uses.get(key);
      if (known === undefined) uses.set(key, { count: 1, length });
      else known.count++;
    }
  }
  const keys = [...uses].filter(([, use]) => (use.count - 1) * use.length >= SHARE_THRESHOLD).map(([key]) => key);
  return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The pieces with every piece not in `shared` joined back into the literal text around it. */
export function keepingShared(tool: DefinitionPieces, shared: ReadonlySet<string>): string[] {
  const out: string[] = [tool.pieces[0] as string];
  for (let i = 1; i < tool.pieces.length; i += 2) {
    const key = tool.pieces[i] as string;
    const after = tool.pieces[i + 1] as string;
    if (shared.has(key)) out.push(key, after);
    else out[out.length - 1] += (tool.components[key] as string) + after;
  }
  return out;
}

/** A string literal in the quotes that need fewer escapes: in JSON text, nearly always single ones. */
function literal(text: string): string {
  const double = stringLiteral(text);
  return prettierString(double, true) ?? double;
}

/** One tool's export: a function that makes its entry's text, so the module parses no piece until a page asks for it. */
export function definitionStatement(constant: string, pieces: readonly string[]): string {
  return `export const ${constant} = (): string => spliced([${pieces.map(literal).join(', ')}]);\n`;
}

/**
 * The module's text, or undefined when no piece is worth sharing (server.ts then embeds each
 * entry whole). Through `memo`, a warm run reads each tool's summary and export from the cache, and
 * cuts only the entries of tools that changed. `constantOf` names a tool's export.
 */
export async function toolDefinitionsModule(tools: readonly Tool[], constantOf: (tool: Tool) => string, memo?: UnitMemo): Promise<string | undefined> {
  const cached = (kind: string, input: string, compute: () => string): Promise<string> => (memo === undefined ? Promise.resolve(compute()) : memo(kind, input, () => Promise.resolve(compute())));
  const cut = new Map<Tool, DefinitionPieces>();
  const piecesOf = (tool: Tool): DefinitionPieces => {
    let pieces = cut.get(tool);
    if (pieces === undefined) cut.set(tool, (pieces = definitionPieces(tool.wire)));
    return pieces;
  };
  const keys = tools.map(entryKey);
  const summaries = (await Promise.all(tools.map((tool, i) => cached('tool-definition-summary', keys[i] as string, () => JSON.stringify(componentSummary(piecesOf(tool))))))).map((text) => JSON.parse(text) as ComponentSummary);
  const shared = sharedKeys(summaries);
  if (shared.length === 0) return undefined;
  const sharedSet = new Set(shared);
  const statements = await Promise.all(
    tools.map((tool, i) => {
      const own = [...new Set((summaries[i] as ComponentSummary).map(([key]) => key).filter((key) => sharedSet.has(key)))];
      return cached('tool-definition-statement', JSON.stringify([keys[i], constantOf(tool), own]), () => definitionStatement(constantOf(tool), keepingShared(piecesOf(tool), sharedSet)));
    }),
  );
  const table = await cached('tool-definition-table', JSON.stringify(shared), () => {
    const texts = new Map<string, string>();
    for (const [i, summary] of summaries.entries()) {
      if (!summary.some(([key]) => sharedSet.has(key) && !texts.has(key))) continue;
      const { components } = piecesOf(tools[i] as Tool);
      for (const [key] of summary) if (sharedSet.has(key)) texts.set(key, components[key] as string);
    }
    return shared.map((key) => `  ${literal(key)}: ${literal(texts.get(key) as string)},\n`).join('');
  });
  return toolDefinitionsFile(table, statements);
}

/** A tool's entry as a cache key: its schemas by digest (schema/digest.ts), so the key stays short. */
function entryKey(tool: Tool): string {
  const wire = { ...tool.wire };
  for (const key of ['inputSchema', 'outputSchema'] as const) {
    const schema = wire[key];
    if (isSchemaObject(schema)) wire[key] = { sha256: schemaDigest(schema) };
  }
  return JSON.stringify(wire);
}

/** The module: the table of shared pieces (`table`, one line each), the join, and each tool's export (`statements`, in manifest order). */
function toolDefinitionsFile(table: string, statements: readonly string[]): string {
  return [
    '/**\n',
    " * The tools' `tools/list` entries as JSON text. A schema piece several entries hold (a definition,\n",
    ' * a root\'s `properties`) is written once in `shared`; each entry is joined from its pieces when a\n',
    ' * page first needs it (the runtime keeps the text), and is byte for byte the whole entry.\n',
    ' */\n\n',
    '/** Pieces several entries hold, by the start of their SHA-256. */\n',
    `const shared: Readonly<Record<string, string>> = {\n${table}};\n\n`,
    '/** Literal text at even places, the key of a shared piece at odd ones. */\n',
    'function spliced(pieces: readonly string[]): string {\n',
    "  return pieces.map((piece, index) => (index % 2 === 0 ? piece : shared[piece])).join('');\n",
    '}\n\n',
    ...statements.map((statement, index) => (index === 0 ? statement : `\n${statement}`)),
  ].join('');
}
