/**
 * `$ref` following for the schema comparison. Local refs (`#`, `#/$defs/x`, `#/definitions/x`, any
 * `#/…` pointer) are followed within their own document; a ref that cannot be followed (remote, an
 * anchor, a dangling pointer, an alias loop) or that the document marks as opaque stays in the node
 * and is compared by its text, like any other keyword.
 */
import { refSegmentKey } from '../schema/keywords.js';
import { isObject, type JsonObject } from './json-values.js';

export interface SchemaDocument {
  /** What local `#/…` refs are read against. */
  root: unknown;
  /** Refs compared by their text instead of followed (a revision's named definitions are compared one by one). */
  isOpaque?: (ref: string) => boolean;
}

/** Ref-to-ref hops allowed before a chain counts as a loop. */
const MAX_HOPS = 32;

export class RefResolver {
  /** The same input node always resolves to the same object, so (old, new) pairs can be remembered. */
  private readonly caches = { opaque: new WeakMap<JsonObject, JsonObject | boolean>(), all: new WeakMap<JsonObject, JsonObject | boolean>() };

  constructor(private readonly doc: SchemaDocument) {}

  /**
   * The node with its `$ref` replaced by the target (the node's own keywords win over the
   * target's). `followOpaque` follows opaque refs too: for a named definition compared against
   * an inline schema or another name, where only the content can be compared.
   */
  resolve(node: JsonObject | boolean, followOpaque = false): JsonObject | boolean {
    return this.follow(node, 0, followOpaque);
  }

  private follow(node: JsonObject | boolean, hops: number, followOpaque: boolean): JsonObject | boolean {
    if (typeof node === 'boolean' || typeof node['$ref'] !== 'string') return node;
    const cache = followOpaque ? this.caches.all : this.caches.opaque;
    const cached = cache.get(node);
    if (cached !== undefined) return cached;
    const ref = node['$ref'];
    const target = (!followOpaque && this.doc.isOpaque?.(ref)) || hops >= MAX_HOPS ? undefined : this.lookup(ref);
    let resolved: JsonObject | boolean = node;
    if (target !== undefined) {
      const { $ref: _ref, ...siblings } = node;
      const followed = this.follow(target, hops + 1, followOpaque);
      if (Object.keys(siblings).length === 0) resolved = followed;
      else if (followed === true) resolved = siblings;
      else if (followed === false) resolved = false;
      else resolved = { ...followed, ...siblings };
    }
    cache.set(node, resolved);
    return resolved;
  }

  private lookup(ref: string): JsonObject | boolean | undefined {
    if (ref !== '#' && !ref.startsWith('#/')) return undefined;
    let value: unknown = this.doc.root;
    for (const raw of ref === '#' ? [] : ref.slice(2).split('/')) {
      const key = refSegmentKey(raw);
      if (key === undefined) return undefined;
      if (Array.isArray(value) && /^(0|[1-9][0-9]*)$/.test(key)) value = value[Number(key)];
      else if (isObject(value) && Object.hasOwn(value, key)) value = value[key];
      else return undefined;
    }
    return isObject(value) || typeof value === 'boolean' ? value : undefined;
  }
}
