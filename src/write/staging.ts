import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

/**
 * The temporary folder beside the output where a run's files are written before they are renamed
 * into place (writer.ts), so a failure before the renames leaves the output exactly as it was.
 *
 * Each file goes to disk as soon as the writer has its final text, and the text is not kept: a
 * large server's files, held until the end and written then, were the largest part of its
 * generation's peak memory. The folder is made on the first file, so a run that fails before
 * writing leaves nothing behind, and it is removed whatever happens.
 */
export class Staging {
  private folder: string | undefined;
  private readonly folders = new Set<string>();
  /** The paths written, in order: each is renamed into place in this order. */
  private readonly paths: string[] = [];

  constructor(private readonly root: string) {}

  /**
   * Writes one file. Synchronous, as the writer's reads: thousands of small files, nothing else to
   * do meanwhile, and each promise-based call costs several times its syscall.
   */
  put(path: string, text: string): void {
    if (this.folder === undefined) {
      mkdirSync(dirname(this.root), { recursive: true });
      this.folder = mkdtempSync(join(dirname(this.root), '.mcp-gen-staging-'));
    }
    const folder = posix.dirname(path);
    if (!this.folders.has(folder)) {
      mkdirSync(join(this.folder, ...folder.split('/')), { recursive: true });
      this.folders.add(folder);
    }
    writeFileSync(join(this.folder, ...path.split('/')), text, 'utf8');
    this.paths.push(path);
  }

  /** Renames every file written into the output folder, one rename per file. */
  moveIntoPlace(): void {
    if (this.folder === undefined) return;
    mkdirSync(this.root, { recursive: true });
    for (const folder of [...this.folders].sort()) mkdirSync(join(this.root, ...folder.split('/')), { recursive: true });
    for (const path of this.paths) renameSync(join(this.folder, ...path.split('/')), join(this.root, ...path.split('/')));
  }

  /** Removes the folder and anything still in it (again: nothing). */
  remove(): void {
    if (this.folder !== undefined) rmSync(this.folder, { recursive: true, force: true });
    this.folder = undefined;
  }
}
