/// <reference types="node" />
/**
 * Lists that change at run time: the pages of a list method and their cursors, and the enabled
 * set and per-request filter of tools and prompts (`ListControl`). While nothing is disabled or
 * filtered, each page is serialized once, when first asked for, and served as it is after.
 */
import { Buffer } from 'node:buffer';
import type { JsonObject, ListControl, ListFilter, RequestContext } from '../api.js';
import { INVALID_PARAMS, errorMessage, resultMessage } from '../protocol/jsonrpc.js';
import type { Outbound } from './outbound.js';

/**
 * One entry of a list result, as its object and as its JSON text: each is made from the other on
 * first need, then kept. A generated server hands its tools over as texts, so serving tools/list
 * parses none of them; hand-written definitions hand over objects.
 */
export class WireEntry {
  // Plain fields, not parameter properties: the runtime is erasable syntax only (type stripping).
  private textForm: string | undefined;
  private valueForm: JsonObject | undefined;
  private readonly derive: (() => JsonObject) | undefined;
  private readonly knownName: string | undefined;
  private readonly makeText: (() => string) | undefined;

  private constructor(
    textForm: string | undefined,
    valueForm: JsonObject | undefined,
    derive: (() => JsonObject) | undefined,
    knownName: string | undefined,
    makeText?: () => string,
  ) {
    this.textForm = textForm;
    this.valueForm = valueForm;
    this.derive = derive;
    this.knownName = knownName;
    this.makeText = makeText;
  }

  static ofValue(value: JsonObject): WireEntry {
    return new WireEntry(undefined, value, undefined, undefined);
  }

  /** `text` must be the JSON of an object whose `name` is `name`. */
  static ofText(text: string, name: string): WireEntry {
    return new WireEntry(text, undefined, undefined, name);
  }

  /**
   * `make` returns the JSON of an object whose `name` is `name`; it is called once, when the text
   * or the object is first needed (a generated server's tool joined from shared definitions).
   */
  static madeText(make: () => string, name: string): WireEntry {
    return new WireEntry(undefined, undefined, undefined, name, make);
  }

  /** An entry computed from others when first needed (a tool as the stateful revisions see it). */
  static derived(derive: () => JsonObject, name: string): WireEntry {
    return new WireEntry(undefined, undefined, derive, name);
  }

  get value(): JsonObject {
    return (this.valueForm ??=
      this.textForm !== undefined || this.makeText !== undefined
        ? (JSON.parse(this.text) as JsonObject)
        : (this.derive as () => JsonObject)());
  }

  get text(): string {
    return (this.textForm ??=
      this.makeText !== undefined ? this.makeText() : JSON.stringify(this.value));
  }

  /** The entry's `name` (tools, prompts), without parsing when it came with the text. */
  get name(): unknown {
    return this.knownName ?? this.value['name'];
  }
}

/**
 * The pages of one list method. A page is serialized when a client first asks for it, then kept
 * (a thousand tools make ten pages, and the first answer needs only the first).
 */
export class ListPages {
  private readonly made = new Map<number, string>();

  /** The result's list member (`tools`, `prompts`, …); cursors name it. */
  readonly field: string;
  readonly entries: readonly WireEntry[];
  readonly pageSize: number;

  constructor(field: string, entries: readonly WireEntry[], pageSize: number) {
    this.field = field;
    this.entries = entries;
    this.pageSize = pageSize;
  }

  /** The page from `offset`. Only the pages our own cursors open are kept: at most one per `pageSize` entries. */
  page(offset: number): string {
    const ours = offset % this.pageSize === 0 && (offset === 0 || offset < this.entries.length);
    if (!ours) return pageOf(this.field, this.entries, offset, this.pageSize);
    let text = this.made.get(offset);
    if (text === undefined) {
      text = pageOf(this.field, this.entries, offset, this.pageSize);
      this.made.set(offset, text);
    }
    return text;
  }

  /** How many pages have been serialized so far. */
  get serialized(): number {
    return this.made.size;
  }
}

/** Cursors are opaque to clients; here they encode the list and the offset of the page they open. */
export function cursorAt(field: string, offset: number): string {
  return Buffer.from(`${field}:${offset}`).toString('base64url');
}

/**
 * The offset a cursor opens `field` at (0 without a cursor); undefined for anything this server
 * did not issue for this list: another list's cursor, a made-up one, one that is not a string.
 */
export function cursorOffset(field: string, cursor: unknown): number | undefined {
  if (cursor === undefined) return 0;
  if (typeof cursor !== 'string' || cursor.length > 64) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(field + ':')) return undefined;
  const digits = text.slice(field.length + 1);
  if (!/^[1-9][0-9]{0,8}$/.test(digits)) return undefined;
  const offset = Number(digits);
  // base64url decoding forgives stray characters: only the exact text we would issue counts.
  return cursorAt(field, offset) === cursor ? offset : undefined;
}

/**
 * One page of `entries` from `offset`, with `nextCursor` when more follow: the entries' texts
 * joined, the same bytes `JSON.stringify` of the page object would give.
 */
export function pageOf(
  field: string,
  entries: readonly WireEntry[],
  offset: number,
  pageSize: number,
): string {
  const texts = entries.slice(offset, offset + pageSize).map((entry) => entry.text);
  const next =
    offset + pageSize < entries.length
      ? `,"nextCursor":${JSON.stringify(cursorAt(field, offset + pageSize))}`
      : '';
  return `{${JSON.stringify(field)}:[${texts.join(',')}]${next}}`;
}

export function invalidCursor(idText: string, method: string): string {
  return errorMessage(
    idText,
    INVALID_PARAMS,
    `Invalid cursor: it was not issued by this server's ${method}`,
  );
}

/**
 * Answers a list request. `visible`, when given, keeps only the entries this request may see; the
 * page is then cut from what is left (a cursor past the end, after the list shrank, opens an empty
 * last page).
 */
export function listPage(
  pages: ListPages,
  method: string,
  idText: string,
  params: JsonObject,
  out: Outbound,
  visible?: (entry: WireEntry) => boolean,
): void {
  const offset = cursorOffset(pages.field, params['cursor']);
  if (offset === undefined) {
    out.respond(invalidCursor(idText, method));
    return;
  }
  const page =
    visible === undefined
      ? pages.page(offset)
      : pageOf(pages.field, pages.entries.filter(visible), offset, pages.pageSize);
  out.respond(resultMessage(idText, page));
}

/** The enabled set and per-request filter of the tools (or prompts) of a manifest. */
export class ListState implements ListControl {
  private readonly disabled = new Set<string>();
  private filter: ListFilter | undefined = undefined;

  private readonly kind: 'tool' | 'prompt';
  private readonly names: ReadonlySet<string>;
  private readonly announce: () => void;
  private readonly log: (line: string) => void;

  constructor(
    kind: 'tool' | 'prompt',
    names: ReadonlySet<string>,
    announce: () => void,
    log: (line: string) => void,
  ) {
    this.kind = kind;
    this.names = names;
    this.announce = announce;
    this.log = log;
  }

  /** False while every entry is served to everyone: the kept pages then hold. */
  get restricted(): boolean {
    return this.disabled.size > 0 || this.filter !== undefined;
  }

  enable(name: string): void {
    if (this.disabled.delete(this.known(name))) this.announce();
  }

  disable(name: string): void {
    if (this.disabled.has(this.known(name))) return;
    this.disabled.add(name);
    this.announce();
  }

  isEnabled(name: string): boolean {
    return !this.disabled.has(this.known(name));
  }

  setFilter(filter: ListFilter | undefined): void {
    if (filter !== undefined && typeof filter !== 'function')
      throw new TypeError(`The ${this.kind} filter must be a function`);
    this.filter = filter;
    this.announce();
  }

  /** Why `name` is not served to this request, or undefined when it is. */
  refusal(name: string, context: () => RequestContext): string | undefined {
    if (this.disabled.has(name)) return 'is disabled';
    const filter = this.filter;
    if (filter === undefined) return undefined;
    try {
      return filter(name, context()) === true ? undefined : 'is not available to this request';
    } catch (error) {
      // A filter that throws serves nothing it was asked about, and says why in the log.
      this.log(
        `The ${this.kind} filter threw for ${name}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return 'is not available to this request';
    }
  }

  private known(name: string): string {
    if (typeof name !== 'string' || !this.names.has(name))
      throw new Error(`No ${this.kind} named ${JSON.stringify(name)} in the manifest`);
    return name;
  }
}
