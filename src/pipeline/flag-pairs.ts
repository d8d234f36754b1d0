import { inputProblem } from '../load/diagnostics.js';

/** `--header 'K: V'` and `--env K=V` lists → records; a malformed entry is bad input. */
export function flagPairs(entries: readonly string[] | undefined, separator: string, flag: string): Record<string, string> | undefined {
  if (!entries || entries.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const entry of entries) {
    const at = entry.indexOf(separator);
    if (at <= 0) throw inputProblem(flag, `expected ${flag === '--env' ? 'K=V' : "'Name: value'"}, got ${JSON.stringify(entry)}`);
    out[entry.slice(0, at).trim()] = entry.slice(at + separator.length).trim();
  }
  return out;
}
