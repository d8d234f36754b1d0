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
   * User-owned files only: called with the file's current text when it already exists. Returns the
   * updated text (e.g. a ts-morph edit that registers a new tool's handler) or `undefined` to leave
   * the file alone. Must only add; user code is never removed or rewritten.
   */
  merge?: (existing: string) => string | undefined;
}
