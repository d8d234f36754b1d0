/**
 * Copies that share structure with their original (see BundleJob.copy in manifest-refs.ts): the
 * new object or array is built only at the first member that differs.
 */
import { defineOwn } from '../schema/keywords.js';

type JsonObject = { [key: string]: unknown };

/**
 * An object's copy built only once it differs: while every member kept is the original's own
 * value, the original itself is the result. Without sharing, a new object is always built.
 */
export class LazyCopy {
  private out: JsonObject | undefined;

  constructor(
    private readonly original: JsonObject,
    readonly sharing: boolean,
  ) {
    if (!sharing) this.out = {};
  }

  /**
   * The member at position `index` of the original's keys, with the value the copy gets and the
   * original's own value there (passed in: a lookup by key costs more than the comparison).
   */
  keep(index: number, key: string, value: unknown, original: unknown): void {
    if (this.out === undefined) {
      if (value === original) return;
      this.out = this.prefix(index);
    }
    defineOwn(this.out, key, value);
  }

  /** The member at position `index` is left out of the copy. */
  drop(index: number): void {
    this.out ??= this.prefix(index);
  }

  result(): JsonObject {
    return this.out ?? this.original;
  }

  /** A new object with the original's members before position `index`, all kept as they are. */
  private prefix(index: number): JsonObject {
    const out: JsonObject = {};
    const keys = Object.keys(this.original);
    for (let i = 0; i < index; i++) defineOwn(out, keys[i]!, this.original[keys[i]!]);
    return out;
  }
}

/** The same for an array. */
export class LazyList {
  private out: unknown[] | undefined;

  constructor(
    private readonly original: unknown[],
    sharing: boolean,
  ) {
    if (!sharing) this.out = [];
  }

  keep(index: number, value: unknown): void {
    if (this.out === undefined) {
      if (value === this.original[index]) return;
      this.out = this.original.slice(0, index);
    }
    this.out.push(value);
  }

  result(): unknown[] {
    return this.out ?? this.original;
  }
}
