/**
 * A YAML manifest read tool by tool. js-yaml takes most of a warm run's load over a 1,000-tool
 * manifest (yaml-fast.ts), though one tool changed: here the root `tools:` block sequence is cut
 * into its entries, line by line, and each entry's text is read on its own, or taken from the last
 * run (the output folder's unit cache, keyed by the entry's text); the rest of the manifest (the
 * text without the entries) is read whole.
 *
 * It gives the value the whole text would give, or declines (undefined: the caller reads the whole
 * text), under these conditions, each checked:
 *   - the text before the `tools:` line is a plain mapping read alone (so nothing open runs into
 *     that line: it is a root key), and the text without the entries has `tools` with no value;
 *   - the entries are the lines after it up to the next line that starts a root key, none of them
 *     less indented than the entries' dash (comments aside), no tab or carriage return among them;
 *   - each entry's text, from its dash to the next dash at that indentation, reads alone (a plain
 *     document, yaml-fast.ts) as a sequence of that one entry. An entry that does not end where the
 *     next dash begins (an open quote, bracket) does not read alone.
 * Only entries whose value JSON text gives back exactly are kept for the next run (json-exact.ts).
 */
import type { Recall } from './bundled-tools-memo.js';
import { survivesJson } from './json-exact.js';
import { fastYamlEntry, fastYamlValue } from './yaml-fast.js';

const KIND = 'yaml-tool';

/** The root `tools:` line (nothing after the colon but a comment). */
const TOOLS_LINE = /^tools:[ ]*(?:#[^\n]*)?\n/m;

/** A manifest's value read tool by tool, or undefined when this way cannot vouch for it. */
export function toolwiseYamlValue(source: string, recall: Recall | undefined): Record<string, unknown> | undefined {
  const line = TOOLS_LINE.exec(source);
  if (line === null) return undefined;
  const start = line.index + line[0].length;
  const split = splitEntries(source, start);
  if (split === undefined) return undefined;
  const { entries, end } = split;
  // The text before the tools: a plain mapping alone (or nothing but comments and blank lines).
  const before = source.slice(0, line.index);
  if (/^[ ]*[^\s#]/m.test(before) && fastYamlValue(before) === undefined) return undefined;
  const rest = ownStrings(fastYamlValue(source.slice(0, start) + source.slice(end)));
  if (rest === undefined || !Object.hasOwn(rest, 'tools') || rest['tools'] !== null) return undefined;
  const tools: unknown[] = [];
  for (const text of entries) {
    const kept = recall?.recall(KIND, text);
    if (kept !== undefined) {
      tools.push(JSON.parse(kept));
      continue;
    }
    const read = fastYamlEntry(text);
    if (read === undefined) return undefined;
    const json = survivesJson(read.entry) ? JSON.stringify(read.entry) : undefined;
    if (json === undefined) {
      tools.push(read.entry);
      continue;
    }
    recall?.put(KIND, text, json);
    tools.push(JSON.parse(json));
  }
  rest['tools'] = tools;
  return rest;
}

/**
 * The value read back from its JSON text where it survives the trip (json-exact.ts). js-yaml's
 * strings are slices of the text it read, and one kept by the model (a description) keeps that
 * whole text alive for the rest of the run: twice its size in bytes when one of its characters is
 * beyond Latin-1. Each tool's entry is read back the same way, through the text its cache keeps.
 */
export function ownStrings<T>(value: T): T {
  return value !== undefined && survivesJson(value) ? (JSON.parse(JSON.stringify(value)) as T) : value;
}

/** Whether a line (from `at`) is blank or a comment. */
function blankOrComment(source: string, at: number, lineEnd: number): boolean {
  let i = at;
  while (i < lineEnd && source.charCodeAt(i) === 0x20) i++;
  return i === lineEnd || source.charCodeAt(i) === 0x23;
}

/**
 * The texts of the block sequence's entries from `start` (each from its dash to the next one's
 * line), and where the sequence ends; undefined when the layout is not the plain one described above.
 */
function splitEntries(source: string, start: number): { entries: string[]; end: number } | undefined {
  let indent = -1;
  const starts: number[] = [];
  let at = start;
  let end = source.length;
  while (at < source.length) {
    const newline = source.indexOf('\n', at);
    const lineEnd = newline < 0 ? source.length : newline;
    const next = newline < 0 ? source.length : newline + 1;
    const first = source.charCodeAt(at);
    if (first === 0x09) return undefined;
    if (blankOrComment(source, at, lineEnd)) {
      at = next;
      continue;
    }
    let spaces = 0;
    while (source.charCodeAt(at + spaces) === 0x20) spaces++;
    if (indent < 0) {
      if (!isDash(source, at + spaces, lineEnd)) return undefined;
      indent = spaces;
    }
    if (spaces === indent && isDash(source, at + spaces, lineEnd)) starts.push(at);
    else if (spaces === 0) {
      end = at;
      break;
    } else if (spaces < indent) return undefined;
    at = next;
  }
  if (starts.length === 0) return undefined;
  const region = source.slice(starts[0], end);
  if (region.includes('\r') || region.includes('\t')) return undefined;
  const entries = starts.map((from, i) => source.slice(from, starts[i + 1] ?? end));
  return { entries, end };
}

/** A sequence entry's dash: `-` then a space or the line's end. */
function isDash(source: string, at: number, lineEnd: number): boolean {
  return source.charCodeAt(at) === 0x2d && (at + 1 === lineEnd || source.charCodeAt(at + 1) === 0x20);
}
