/**
 * Verified tokens by the SHA-256 of their text, until they expire: a client reusing its token (the
 * usual case) costs a hash and a map lookup, not a signature check or an introspection call. The
 * token itself is never stored. Bounded: past `max` entries, the least recently used goes.
 */
import { createHash } from 'node:crypto';
import type { AuthInfo } from '../api.js';

interface Entry {
  info: AuthInfo;
  /** Milliseconds since the epoch. */
  until: number;
}

export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  private readonly max: number;
  /** How long an entry without `expiresAt` is kept (introspection answers without `exp`). */
  private readonly fallbackMs: number;

  constructor(max = 10_000, fallbackMs = 60_000) {
    this.max = max;
    this.fallbackMs = fallbackMs;
  }

  static key(token: string): string {
    return createHash('sha256').update(token).digest('base64url');
  }

  get(key: string, now = Date.now()): AuthInfo | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (entry.until <= now) return undefined;
    this.entries.set(key, entry); // most recently used last
    return entry.info;
  }

  set(key: string, info: AuthInfo, now = Date.now()): void {
    const until = info.expiresAt !== undefined ? info.expiresAt * 1000 : now + this.fallbackMs;
    if (until <= now) return;
    this.entries.delete(key);
    this.entries.set(key, { info, until });
    if (this.entries.size > this.max)
      this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }
}
