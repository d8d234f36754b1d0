import type { PlannedFile } from '../write/planned-file.js';

/**
 * A generated file whose content is made only when needed (see `PlannedFile.produce`), as an
 * emitter plans it. Reading `content` directly is a mistake that would otherwise write an empty
 * file: it throws.
 */
export function deferredFile(file: Omit<PlannedFile, 'content' | 'produce' | 'contentKey'> & { contentKey: string; produce: () => Promise<string> }): PlannedFile {
  // Not enumerable, so copying the file (`{ ...file, content }`) does not trip it.
  return Object.defineProperty({ ...file }, 'content', {
    enumerable: false,
    get(): string {
      throw new Error(`${file.path}: content deferred until written; read it with contentOf()`);
    },
  }) as PlannedFile;
}
