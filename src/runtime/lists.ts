/**
 * Lists that change at run time: the pages of a list method and their cursors, and the enabled
 * set and per-request filter of tools and prompts (`ListControl`). While nothing is disabled or
 * filtered, the pages serialized at start-up are served as they are.
 */
import { Buffer } from 'node:buffer';
import type { JsonObject, ListControl, ListFilter, RequestContext } from './api.js';
import { INVALID_PARAMS, errorMessage, resultMessage } from './jsonrpc.js';
import type { Outbound } from './outbound.js';

/** Pre-serialized result objects of one list method: the first page and the pages behind each cursor. */
export interface ListPages {
  /** The result's list member (`tools`, `prompts`, …); cursors name it. */
  readonly field: string;
  readonly entries: readonly JsonObject[];
  readonly pageSize: number;
  readonly first: string;
  readonly byCursor: ReadonlyMap<string, string>;
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

/** One page of `entries` from `offset`, with `nextCursor` when more follow. */
export function pageOf(
  field: string,
  entries: readonly JsonObject[],
  offset: number,
  pageSize: number,
): string {
  const page: JsonObject = { [field]: entries.slice(offset, offset + pageSize) };
  if (offset + pageSize < entries.length) page['nextCursor'] = cursorAt(field, offset + pageSize);
  return JSON.stringify(page);
}

export function paginate(
  field: string,
  entries: readonly JsonObject[],
  pageSize: number,
): ListPages {
  const byCursor = new Map<string, string>();
  let first = '';
  for (let offset = 0; offset === 0 || offset < entries.length; offset += pageSize) {
    const text = pageOf(field, entries, offset, pageSize);
    if (offset === 0) first = text;
    else byCursor.set(cursorAt(field, offset), text);
  }
  return { field, entries, pageSize, first, byCursor };
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
  visible?: (entry: JsonObject) => boolean,
): void {
  const cursor = params['cursor'];
  if (visible === undefined) {
    const stored =
      cursor === undefined
        ? pages.first
        : typeof cursor === 'string'
          ? pages.byCursor.get(cursor)
          : undefined;
    if (stored !== undefined) {
      out.respond(resultMessage(idText, stored));
      return;
    }
  }
  const offset = cursorOffset(pages.field, cursor);
  if (offset === undefined) {
    out.respond(invalidCursor(idText, method));
    return;
  }
  const entries = visible === undefined ? pages.entries : pages.entries.filter(visible);
  out.respond(resultMessage(idText, pageOf(pages.field, entries, offset, pages.pageSize)));
}

/** The enabled set and per-request filter of the tools (or prompts) of a manifest. */
export class ListState implements ListControl {
  private readonly disabled = new Set<string>();
  private filter: ListFilter | undefined = undefined;

  constructor(
    private readonly kind: 'tool' | 'prompt',
    private readonly names: ReadonlySet<string>,
    private readonly announce: () => void,
    private readonly log: (line: string) => void,
  ) {}

  /** False while every entry is served to everyone: the start-up pages then hold. */
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
