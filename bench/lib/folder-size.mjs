// The size of a generated folder (issue 42's output figure): the sum of every file's apparent size,
// dotfiles included, symbolic links counted as links (a node_modules link adds a few bytes, not its
// tree). `du --apparent-size -b` gives a little more: it also counts the folders themselves.
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Bytes and count of the files under `dir`. */
export function folderSize(dir) {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = folderSize(full);
      bytes += inner.bytes;
      files += inner.files;
    } else {
      bytes += lstatSync(full).size;
      files += 1;
    }
  }
  return { bytes, files };
}
