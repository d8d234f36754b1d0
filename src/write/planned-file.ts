/**
 * What every emitter produces: a file the writer may put on disk. Emitters never touch `fs`;
 * only `src/write` does.
 */
export type FileOwner = 'generated' | 'user';

/**
 * How the writer formats the content before writing. `none` skips prettier (machine-laid-out code
 * such as ajv's validators, where prettier costs seconds and adds bytes); the banner still goes on.
 */
export type FileFormat = 'typescript' | 'javascript' | 'json' | 'markdown' | 'none';

export interface PlannedFile {
  /** Posix path relative to the output folder, e.g. `generated/types.ts`. Never absolute, never `..`. */
  path: string;
  content: string;
  /**
   * `generated`: carries the banner, rewritten on every run, listed in the ledger.
   * `user`: created once and never overwritten (unless --force).
   */
  owner: FileOwner;
  format: FileFormat;
  /**
   * User-owned files only: called with the file's current text when it already exists. Gives
   * the updated text (e.g. an edit that registers a new tool's handler) or `undefined` to leave the
   * file alone. Must only add; user code is never removed or rewritten. `memo` is the output
   * folder's unit cache, when there is one: a hook whose answer depends only on the text and the
   * manifest may reuse the last run's answer instead of parsing the file again.
   */
  merge?: (existing: string, memo?: MergeMemo) => string | undefined | Promise<string | undefined>;
  /**
   * With `merge`: called with the text the writer just created this file with, so the hook can
   * remember in the unit cache that merging that very text has nothing to add (the template already
   * holds everything); the next run then needs no parse of an untouched file.
   */
  created?: (text: string, memo: MergeMemo) => Promise<void>;
  /**
   * Generated files only: a text that fixes `content` (same path and key, same content), such as
   * hashes of what it is made from. The unit cache remembers the hash of the file rendered under
   * this key, so a later run whose file on disk hashes to it leaves the file alone without needing
   * its content.
   */
  contentKey?: string;
  /**
   * With `contentKey`, for content the planner does not hold (a tool's validators known only by
   * their hash in the unit cache): makes it. `content` then throws when read; `contentOf` gives
   * it either way. The writer calls this only when the file on disk is not the one the key names.
   */
  produce?: () => Promise<string>;
}

/** Caches an asynchronous pure step by kind and input (`UnitCache.memoAsync`). */
export type MergeMemo = (kind: string, input: string, compute: () => Promise<string>) => Promise<string>;

/** A planned file's content, made first when the planner deferred it. */
export async function contentOf(file: PlannedFile): Promise<string> {
  return file.produce ? file.produce() : file.content;
}
