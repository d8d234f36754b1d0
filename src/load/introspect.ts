/**
 * A live server → a snapshot document: what `mcp-gen client --from-url/--from-command` read over
 * the protocol (every page of tools, prompts, resources and templates), kept as plain JSON so it can
 * be saved (`--save-snapshot`) and generated from again offline (`--from-snapshot`). Everything in
 * it is the server's word: untrusted data, checked when the model is built from it.
 */
import { readFile } from 'node:fs/promises';
import { ClientSession, listAll, transportFor, type ServerLocation } from '../runtime/client/index.js';
import { isObject } from '../runtime/protocol/jsonrpc.js';
import { escapeInvisible } from '../printer/escape.js';
import { jsonText } from './deep-json.js';
import { inputProblem, InputError, unplacedDiagnostic, UnreachableError } from './diagnostics.js';
import { duplicateKeys, lineAndColumn } from './json-duplicates.js';
import { inspectingTransport } from './raw-json-transport.js';

export const SNAPSHOT_FORMAT = 1;

export interface ServerSnapshot {
  mcpGenSnapshot: typeof SNAPSHOT_FORMAT;
  protocolVersion: string;
  serverInfo: { [key: string]: unknown };
  capabilities: { [key: string]: unknown };
  instructions?: string;
  tools: { [key: string]: unknown }[];
  prompts: { [key: string]: unknown }[];
  resources: { [key: string]: unknown }[];
  resourceTemplates: { [key: string]: unknown }[];
  /**
   * Member names the server's JSON text repeated (JSON.parse kept the last value), by pointer into
   * this snapshot (`/tools/3/name`) or, outside the lists, into the answer that carried them.
   */
  duplicateKeys?: SnapshotDuplicateKey[];
}

export interface SnapshotDuplicateKey {
  pointer: string;
  key: string;
  /**
   * What the earlier members of that name said, as names (JSON.parse kept only the last): a
   * string value itself, or the `name` (else `uri`) of each entry of a list sent twice.
   */
  earlier?: string[];
  /** Where in a snapshot file's text, when read from one. */
  line?: number;
  column?: number;
}

const LISTS = ['tools', 'prompts', 'resources', 'resourceTemplates'] as const;

/** Connects, reads every list the server's capabilities offer, and disconnects. */
export async function introspect(location: ServerLocation, log: (line: string) => void, protocolVersions?: readonly string[]): Promise<ServerSnapshot> {
  // Duplicate keys are only visible in the text: each answer is scanned before it is used.
  const repeated = new WeakMap<object, SnapshotDuplicateKey[]>();
  const elsewhere: SnapshotDuplicateKey[] = [];
  const scan = (message: unknown, text: string): void => {
    for (const { pointer, key, earlier } of duplicateKeys(text)) {
      const m = /^(?:\/(\d+))?\/result\/(tools|prompts|resources|resourceTemplates)\/(\d+)(\/.*)$/.exec(pointer);
      const answer: unknown = m?.[1] === undefined ? message : Array.isArray(message) ? message[Number(m[1])] : undefined;
      const result = isObject(answer) ? answer['result'] : undefined;
      const list = isObject(result) && m ? result[m[2] as string] : undefined;
      const item: unknown = Array.isArray(list) ? list[Number(m?.[3])] : undefined;
      const kept = namedIn(earlier);
      if (isObject(item)) repeated.set(item, [...(repeated.get(item) ?? []), { pointer: m?.[4] as string, key, ...kept }]);
      else elsewhere.push({ pointer, key, ...kept });
    }
  };
  const session = await connectInspecting(location, scan, protocolVersions).catch((error: Error) => {
    throw new UnreachableError([unplacedDiagnostic(describeLocation(location), '', `cannot connect: ${error.message}`)]);
  });
  try {
    const { protocolVersion, capabilities, serverInfo, instructions } = session.server;
    const name = serverInfo?.['name'];
    log(`connected: ${typeof name === 'string' ? JSON.stringify(name) : 'server'} speaks ${protocolVersion}`);
    const list = (capability: string, method: string, field: string) =>
      isObject(capabilities[capability]) ? listAll(session, method, field, { timeoutMs: 30_000 }) : Promise.resolve([]);
    const snapshot: ServerSnapshot = {
      mcpGenSnapshot: SNAPSHOT_FORMAT,
      protocolVersion,
      serverInfo: serverInfo ?? {},
      capabilities,
      tools: await list('tools', 'tools/list', 'tools'),
      prompts: await list('prompts', 'prompts/list', 'prompts'),
      resources: await list('resources', 'resources/list', 'resources'),
      resourceTemplates: await list('resources', 'resources/templates/list', 'resourceTemplates').catch(() => []),
    };
    if (instructions !== undefined) snapshot.instructions = instructions;
    const found = [...elsewhere];
    for (const field of LISTS) {
      snapshot[field].forEach((item, index) => {
        for (const { pointer, ...rest } of repeated.get(item) ?? []) found.push({ pointer: `/${field}/${index}${pointer}`, ...rest });
      });
    }
    if (found.length > 0) snapshot.duplicateKeys = found;
    return snapshot;
  } catch (error) {
    if (error instanceof InputError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new UnreachableError([unplacedDiagnostic(describeLocation(location), '', `the server failed while its lists were read: ${reason}`)]);
  } finally {
    await session.close();
  }
}

/** `openSession`, with every incoming message's text shown to `inspect` first. */
async function connectInspecting(location: ServerLocation, inspect: (message: unknown, text: string) => void, protocolVersions: readonly string[] | undefined): Promise<ClientSession> {
  // Read as a host that shows MCP Apps views reads it: a server hides its app-only tools and every
  // `_meta.ui` from clients without the extension (the fallback), and bindings and diffs need them.
  const extensions = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
  const options = { clientInfo: { name: 'mcp-gen', version: '0.1.0' }, extensions, ...(protocolVersions ? { protocolVersions } : {}) };
  const session = new ClientSession(inspectingTransport(await transportFor(location), inspect), options);
  try {
    await session.connect();
  } catch (error) {
    await session.close().catch(() => {});
    throw error;
  }
  return session;
}

function describeLocation(location: ServerLocation): string {
  return 'url' in location ? String(location.url) : [location.command, ...(location.args ?? [])].join(' ');
}

/**
 * The snapshot as written to disk: stable bytes for the same server answers, at any nesting depth.
 * Users commit it and review it, so every invisible, line-separating or direction-changing character
 * of the server's text is written as a `\uXXXX` escape (the same JSON value, but visible in a diff).
 */
export function snapshotText(snapshot: ServerSnapshot): string {
  return `${escapeInvisible(jsonText(snapshot))}\n`;
}

/** `{ earlier }`: the names the dropped values held (strings, or list entries' names), when any. */
function namedIn(values: readonly unknown[]): { earlier?: string[] } {
  const names = values.flatMap((value): unknown[] => (Array.isArray(value) ? value.map((entry) => (isObject(entry) ? (entry['name'] ?? entry['uri']) : undefined)) : [value]));
  const strings = names.filter((n): n is string => typeof n === 'string');
  return strings.length > 0 ? { earlier: strings } : {};
}

/** Reads a snapshot written by `--save-snapshot`; its shape is checked, its content is not trusted. */
export async function readSnapshot(path: string): Promise<ServerSnapshot> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw inputProblem(path, `cannot read snapshot: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw inputProblem(path, `not JSON: ${(error as Error).message}`);
  }
  if (!isObject(value) || value['mcpGenSnapshot'] !== SNAPSHOT_FORMAT) {
    throw inputProblem(path, `not an mcp-gen snapshot (format ${SNAPSHOT_FORMAT})`, 'write one with `mcp-gen client --from-url … --save-snapshot <file>`');
  }
  const problems = [];
  for (const field of LISTS) {
    const list = value[field];
    if (!Array.isArray(list) || !list.every(isObject)) problems.push(unplacedDiagnostic(path, `/${field}`, 'must be an array of objects'));
  }
  for (const field of ['serverInfo', 'capabilities']) {
    if (!isObject(value[field])) problems.push(unplacedDiagnostic(path, `/${field}`, 'must be an object'));
  }
  if (typeof value['protocolVersion'] !== 'string') problems.push(unplacedDiagnostic(path, '/protocolVersion', 'must be a string'));
  const recorded = value['duplicateKeys'];
  const isStrings = (v: unknown): boolean => v === undefined || (Array.isArray(v) && v.every((s) => typeof s === 'string'));
  const isRecord = (d: unknown): boolean => isObject(d) && typeof d['pointer'] === 'string' && typeof d['key'] === 'string' && isStrings(d['earlier']);
  if (recorded !== undefined && !(Array.isArray(recorded) && recorded.every(isRecord))) {
    problems.push(unplacedDiagnostic(path, '/duplicateKeys', 'must be an array of { pointer, key, earlier? } objects'));
  }
  if (problems.length > 0) throw new InputError(problems);
  const snapshot = value as unknown as ServerSnapshot;
  // Those the live server sent (recorded when it was saved), and those of this file's own text.
  const inText = duplicateKeys(text).map(({ offset, pointer, key, earlier }): SnapshotDuplicateKey => ({ pointer, key, ...namedIn(earlier), ...lineAndColumn(text, offset) }));
  const all = [...((recorded as SnapshotDuplicateKey[] | undefined) ?? []).map(({ pointer, key, earlier }) => ({ pointer, key, ...(earlier !== undefined ? { earlier } : {}) })), ...inText];
  if (all.length > 0) snapshot.duplicateKeys = all;
  else delete snapshot.duplicateKeys;
  return snapshot;
}

/** Splits a command line the way a POSIX shell splits words: quotes and backslashes, no expansion. */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) throw inputProblem('--from-command', 'unterminated single quote');
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      inWord = true;
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1] as string)) i++;
        word += line[i];
      }
      if (i >= line.length) throw inputProblem('--from-command', 'unterminated double quote');
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  if (words.length === 0) throw inputProblem('--from-command', 'empty command');
  return words;
}
