/**
 * What the resource server answered for a verified token, until the token expires, keyed by the
 * exact `Authorization` header that carried it: a client reusing its token (the usual case) costs
 * a lookup, not a header parse, a hash, a signature check or an introspection call. The header
 * text stays in this process, as it already sits in every request: never logged, never sent
 * anywhere. A header that differs in any character is another key, verified on its own. Bounded by
 * entries and by the characters of their keys: past either, the least recently used goes. An
 * expired entry is never answered, and is dropped when looked up.
 *
 * Per connection, the last entry it was answered with is remembered too: a keep-alive connection
 * carries one client's token, so its next request costs comparing the header with the one this
 * same connection sent before, not hashing the long header for the map. A connection's header is
 * only ever compared with its own earlier header, so the time a comparison takes tells nothing
 * about another client's token. An entry stays usable through its connection until it expires,
 * even when the map has let it go (it is still a verified answer), unless `forget` dropped it (its
 * signing key left the issuer's key set).
 */

interface Entry<T> {
  value: T;
  /** Milliseconds since the epoch; 0 once forgotten. */
  until: number;
  /** What the entry rests on besides its expiry (the signing key's id), for `forget`. */
  tag: string | undefined;
}

export class TokenCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly max: number;
  private readonly maxChars: number;
  /** How long an entry without an expiry is kept (introspection answers without `exp`). */
  private readonly fallbackMs: number;
  /** Sum of the keys' lengths. */
  private chars = 0;
  /** The most recently used entry: a hit on it needs no reordering. */
  private newest: Entry<T> | undefined;
  /** Per connection (its socket): the key and entry of its last hit; gone with the connection. */
  private lastByConnection = new WeakMap<object, { key: string; entry: Entry<T> }>();

  constructor(max = 10_000, fallbackMs = 60_000, maxChars = 8 * 1024 * 1024) {
    this.max = max;
    this.fallbackMs = fallbackMs;
    this.maxChars = maxChars;
  }

  /** The value kept under `key`, if it has not expired; `connection` (a socket) makes its next hit cheap. */
  get(key: string, now = Date.now(), connection?: object | null): T | undefined {
    const last = connection == null ? undefined : this.lastByConnection.get(connection);
    if (last !== undefined && last.key === key) {
      if (last.entry.until > now) return last.entry.value;
      this.lastByConnection.delete(connection!);
    }
    const entry = this.entries.get(key);
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
    }
    if (connection != null) this.lastByConnection.set(connection, { key, entry });
    return entry.value;
  }

  /** Keeps `value` until `expiresAt` (seconds since the epoch), or `fallbackMs` when it has none. */
  set(key: string, value: T, expiresAt: number | undefined, now = Date.now(), tag?: string): void {
    const until = expiresAt !== undefined ? expiresAt * 1000 : now + this.fallbackMs;
    this.remove(key);
    if (until <= now || key.length > this.maxChars) return;
    const entry = { value, until, tag };
    this.entries.set(key, entry);
    this.chars += key.length;
    this.newest = entry;
    while (this.entries.size > this.max || this.chars > this.maxChars)
      this.remove(this.entries.keys().next().value as string);
  }

  /** Drops every entry whose tag `keep` refuses (rare: a key rotated out), connections' memories too. */
  forget(keep: (tag: string | undefined) => boolean): void {
    for (const [key, entry] of this.entries) {
      if (keep(entry.tag)) continue;
      entry.until = 0;
      this.remove(key);
    }
    // A connection may remember an entry the map has already let go: each asks the map again.
    this.lastByConnection = new WeakMap();
  }

  get size(): number {
    return this.entries.size;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.chars -= key.length;
    if (entry === this.newest) this.newest = undefined;
  }
}
