import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatText } from './render.js';

/**
 * The runtime (`src/runtime/**`) is copied into every generated server and client byte for byte:
 * formatting 60 files with prettier on every run cost seconds. So the sources themselves are kept
 * exactly as the generator's prettier options print them; `npm run format:runtime` rewrites them,
 * and test/write/runtime-format.test.ts fails when one drifts.
 */

/** Every runtime source the generator may copy, relative to `src/runtime/` (posix, sorted). */
export function runtimeSourcePaths(runtimeDir: string): string[] {
  return (readdirSync(runtimeDir, { recursive: true, encoding: 'utf8' }) as string[])
    .map((path) => path.split('\\').join('/'))
    .filter((path) => path.endsWith('.ts') || path.endsWith('.md'))
    .sort();
}

/** The source as the generator would have printed it (identical when it is already clean). */
async function formatRuntimeSource(path: string, text: string): Promise<string> {
  return formatText(text, path.endsWith('.md') ? 'markdown' : 'typescript', path);
}

/** Runtime sources that are not prettier-clean under the generator's options, with their clean text. */
export async function unformattedRuntimeSources(runtimeDir: string): Promise<{ path: string; formatted: string }[]> {
  const drifted: { path: string; formatted: string }[] = [];
  for (const path of runtimeSourcePaths(runtimeDir)) {
    const text = readFileSync(join(runtimeDir, path), 'utf8');
    const formatted = await formatRuntimeSource(path, text);
    if (formatted !== text) drifted.push({ path, formatted });
  }
  return drifted;
}
