/** Small helpers over plain JSON values, shared by the diff modules. */
import { pointerSegment } from '../schema/keywords.js';
import { byCodeUnit } from '../printer/names.js';

export type JsonObject = { [key: string]: unknown };

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON text with object keys sorted, so that equal values give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort(byCodeUnit);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** `base` extended by one RFC 6901 segment per argument. */
export function childPointer(base: string, ...segments: (string | number)[]): string {
  return base + segments.map((s) => `/${pointerSegment(String(s))}`).join('');
}

/** Union of two key lists, sorted by code unit: the order every comparison walks in. */
export function sortedUnion(a: Iterable<string>, b: Iterable<string>): string[] {
  return [...new Set([...a, ...b])].sort(byCodeUnit);
}

/** A short rendering of a value for messages. */
export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
