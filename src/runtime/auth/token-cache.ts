/**
 * What the resource server answered for a verified token, until the token expires, keyed by the
 * exact `Authorization` header that carried it: a client reusing its token (the usual case) costs
 * one map lookup, not a header parse, a hash, a signature check or an introspection call. The
 * header text stays in this map, in this process, as it already sits in every request: never
 * logged, never sent anywhere. A header that differs in any character is another key, verified on
 * its own. Bounded by entries and by the characters of their keys: past either, the least recently
 * used goes. An expired entry is never answered, and is dropped when looked up.
 */

interface Entry<T> {
  value: T;
  /** Milliseconds since the epoch. */
  until: number;
}

export class TokenCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly max: number;
  private readonly maxChars: number;
  /** How long an entry without an expiry is kept (introspection answers without `exp`). */
  private readonly fallbackMs: number;
  /** Sum of the keys' lengths. */
  private chars = 0;
  /**
   * The most recently used entry and its key. The usual hit (one client reusing its token) is
   * found by comparing the key to this one: no hashing of a long string, no reordering.
   */
  private newest: Entry<T> | undefined;
  private newestKey: string | undefined;

  constructor(max = 10_000, fallbackMs = 60_000, maxChars = 8 * 1024 * 1024) {
    this.max = max;
    this.fallbackMs = fallbackMs;
    this.maxChars = maxChars;
  }

  get(key: string, now = Date.now()): T | undefined {
    const entry = key === this.newestKey ? this.newest : this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until <= now) {
      this.remove(key);
      return undefined;
    }
    if (entry !== this.newest) {
      // Map order is use order: most recently used last.
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.newest = entry;
      this.newestKey = key;
    }
    return entry.value;
  }

  /** Keeps `value` until `expiresAt` (seconds since the epoch), or `fallbackMs` when it has none. */
  set(key: string, value: T, expiresAt: number | undefined, now = Date.now()): void {
    const until = expiresAt !== undefined ? expiresAt * 1000 : now + this.fallbackMs;
    this.remove(key);
    if (until <= now || key.length > this.maxChars) return;
    const entry = { value, until };
    this.entries.set(key, entry);
    this.chars += key.length;
    this.newest = entry;
    this.newestKey = key;
    while (this.entries.size > this.max || this.chars > this.maxChars) this.remove(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.chars -= key.length;
    if (entry === this.newest) this.newest = this.newestKey = undefined;
  }
}
