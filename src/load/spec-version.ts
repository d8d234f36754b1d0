/**
 * The protocol version a schema states about itself. Published schema.json files rarely carry the
 * `LATEST_PROTOCOL_VERSION` of their schema.ts, but drafts and errata may, and most dated revisions
 * link their own pages (`/specification/2025-11-25/…`). The label a user gives (a folder name,
 * `--revision`) is only the fallback, so `--spec draft` and a renamed file still say what they are.
 */
import { isSchemaObject } from '../schema/keywords.js';

/** A version string worth believing: a date (`2026-07-28`), `draft`, or a draft tag (`DRAFT-2026-v1`). */
const VERSION_LIKE = /^(?:\d{4}-\d{2}-\d{2}|draft|DRAFT-[A-Za-z0-9.-]+)$/;

/** Definition names that hold the version as their `const` (a schema generator's view of the constant). */
const CONSTANT_NAMES = ['LATEST_PROTOCOL_VERSION', 'LatestProtocolVersion', 'ProtocolVersion'];

/**
 * The version `document` states, looked for in this order: a top-level `LATEST_PROTOCOL_VERSION`,
 * a definition named after it, one single value for every `protocolVersion` property that pins one
 * (`const`, a one-value `enum`), and one single date among the specification links. Undefined
 * when the schema says nothing, or says two different things.
 */
export function statedProtocolVersion(document: unknown, defs: Record<string, unknown>): string | undefined {
  const root = isSchemaObject(document) ? document : {};
  const top = pinned(root['LATEST_PROTOCOL_VERSION']);
  if (top !== undefined) return top;
  for (const name of CONSTANT_NAMES) {
    const value = Object.hasOwn(defs, name) ? pinned(defs[name]) : undefined;
    if (value !== undefined) return value;
  }
  return onlyOne(pinnedProtocolVersions(defs)) ?? onlyOne(linkedRevisions(defs));
}

/** A string value, or the one value a schema pins with `const` or a one-value `enum`. */
function pinned(value: unknown): string | undefined {
  if (typeof value === 'string') return VERSION_LIKE.test(value) ? value : undefined;
  if (!isSchemaObject(value)) return undefined;
  const enumValues = value['enum'];
  const candidates = [value['const'], Array.isArray(enumValues) && enumValues.length === 1 ? enumValues[0] : undefined];
  return candidates.find((c): c is string => typeof c === 'string' && VERSION_LIKE.test(c));
}

/** Values pinned on properties named `protocolVersion` (or `…/protocolVersion`, as in `_meta` keys). */
function pinnedProtocolVersions(defs: Record<string, unknown>): Set<string> {
  const found = new Set<string>();
  walk(defs, (node) => {
    const properties = node['properties'];
    if (!isSchemaObject(properties)) return;
    for (const [key, value] of Object.entries(properties)) {
      if (key !== 'protocolVersion' && !key.endsWith('/protocolVersion')) continue;
      const version = isSchemaObject(value) ? pinned(value) : undefined;
      if (version !== undefined) found.add(version);
    }
  });
  return found;
}

/** Dates in links to the specification site, as every dated revision's descriptions have them. */
function linkedRevisions(defs: Record<string, unknown>): Set<string> {
  const found = new Set<string>();
  walk(defs, (node) => {
    const description = node['description'];
    if (typeof description !== 'string') return;
    for (const match of description.matchAll(/\/specification\/(\d{4}-\d{2}-\d{2})\//g)) found.add(match[1]!);
  });
  return found;
}

function onlyOne(values: Set<string>): string | undefined {
  return values.size === 1 ? [...values][0] : undefined;
}

/** Visits every object under `root`, without recursion (schemas can be deep). */
function walk(root: unknown, visit: (node: Record<string, unknown>) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) stack.push(...value);
    else {
      visit(value as Record<string, unknown>);
      stack.push(...Object.values(value));
    }
  }
}
