/**
 * The fixtures file of `mcp-gen mock --fixtures`: canned answers per tool, matched on the call's
 * arguments, tried in order before any generated answer.
 *
 *   tools:
 *     get_weather:
 *       - match: { location: Paris }       # every listed argument equal (objects: the listed members)
 *         result: { location: Paris, … }   # structuredContent (checked against the outputSchema);
 *                                          # a string for a tool without one (its text content)
 *       - match: { location: Atlantis }
 *         error: { message: No such place } # a tool error (isError: true)
 *
 * Every problem is reported at once with its file:line:col and JSON pointer, like the manifest's.
 */
import { readFile } from 'node:fs/promises';
import { InputError, inputProblem, type Diagnostic } from '../load/diagnostics.js';
import { diagnosticAt, formatOf, joinPointer, parseSource, type SourceDocument } from '../load/yaml-positions.js';
import type { ServiceModel } from '../model/service-model.js';
import type { ToolValidators } from './validators.js';

export interface ToolFixture {
  /** Absent: matches every call. */
  match?: { [key: string]: unknown };
  result?: unknown;
  error?: { message: string };
}

/** Canned answers keyed by tool name. */
export type Fixtures = ReadonlyMap<string, readonly ToolFixture[]>;

const isObject = (v: unknown): v is { [key: string]: unknown } => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function loadFixtures(file: string, model: ServiceModel, validators: ReadonlyMap<string, ToolValidators>): Promise<Fixtures> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw inputProblem(file, `cannot read the fixtures file: ${(error as Error).message}`);
  }
  const parsed = parseSource(text, file, formatOf(file));
  if (!parsed.document) throw new InputError(parsed.problems);
  const problems = [...parsed.problems];
  const fixtures = checkFixtures(parsed.document, model, validators, problems);
  if (problems.length > 0) throw new InputError(problems);
  return fixtures;
}

function checkFixtures(doc: SourceDocument, model: ServiceModel, validators: ReadonlyMap<string, ToolValidators>, problems: Diagnostic[]): Fixtures {
  const out = new Map<string, ToolFixture[]>();
  const at = (pointer: string, message: string, hint?: string, part?: 'key'): void => {
    problems.push(diagnosticAt(doc, pointer, message, hint, part));
  };
  const root = doc.value;
  if (!isObject(root)) {
    at('', 'the fixtures file must be a mapping with a `tools` member');
    return out;
  }
  for (const key of Object.keys(root)) if (key !== 'tools') at(`/${key}`, `unknown member ${JSON.stringify(key)}`, 'the fixtures file has one member, `tools`', 'key');
  const tools = root['tools'];
  if (tools === undefined) return out;
  if (!isObject(tools)) {
    at('/tools', '`tools` must map tool names to lists of fixtures');
    return out;
  }
  const known = model.tools.map((t) => t.name);
  for (const name of Object.keys(tools)) {
    const toolPointer = joinPointer('/tools', name);
    const tool = validators.get(name);
    if (!known.includes(name) || tool === undefined) {
      at(toolPointer, `no tool named ${JSON.stringify(name)} in the server`, `its tools: ${known.join(', ') || 'none'}`, 'key');
      continue;
    }
    const entries = tools[name];
    if (!Array.isArray(entries)) {
      at(toolPointer, 'must be a list of fixtures (`- match: …` with `result:` or `error:`)');
      continue;
    }
    const kept: ToolFixture[] = [];
    entries.forEach((entry, index) => {
      const pointer = joinPointer(toolPointer, index);
      const fixture = checkEntry(entry, pointer, tool, at);
      if (fixture) kept.push(fixture);
    });
    out.set(name, kept);
  }
  return out;
}

function checkEntry(
  entry: unknown,
  pointer: string,
  tool: ToolValidators,
  at: (pointer: string, message: string, hint?: string, part?: 'key') => void,
): ToolFixture | undefined {
  if (!isObject(entry)) {
    at(pointer, 'a fixture must be a mapping with `match` and one of `result` or `error`');
    return undefined;
  }
  let ok = true;
  for (const key of Object.keys(entry)) {
    if (!['match', 'result', 'error'].includes(key)) {
      at(joinPointer(pointer, key), `unknown member ${JSON.stringify(key)}`, 'a fixture has `match`, and `result` or `error`', 'key');
      ok = false;
    }
  }
  const match = entry['match'];
  if (match !== undefined && !isObject(match)) {
    at(joinPointer(pointer, 'match'), '`match` must be a mapping of argument names to values');
    ok = false;
  }
  const hasResult = Object.hasOwn(entry, 'result');
  const hasError = Object.hasOwn(entry, 'error');
  if (hasResult === hasError) {
    at(pointer, hasResult ? 'a fixture has `result` or `error`, not both' : 'a fixture needs `result` or `error`');
    return undefined;
  }
  if (hasError) {
    const error = entry['error'];
    if (!isObject(error) || typeof error['message'] !== 'string') {
      at(joinPointer(pointer, 'error'), '`error` must be a mapping with a string `message`');
      return undefined;
    }
  } else if (tool.output) {
    if (!tool.output(entry['result'])) {
      for (const issue of tool.output.errors ?? []) {
        at(pointer + '/result' + issue.instancePath, `the result does not match the tool's outputSchema: ${issue.message ?? issue.keyword}`);
      }
      return undefined;
    }
  } else if (typeof entry['result'] !== 'string') {
    at(joinPointer(pointer, 'result'), 'the tool has no outputSchema: its `result` is the text it answers, a string');
    return undefined;
  }
  if (!ok) return undefined;
  return {
    ...(isObject(match) ? { match } : {}),
    ...(hasResult ? { result: entry['result'] } : { error: { message: (entry['error'] as { message: string }).message } }),
  };
}

/** Whether `args` holds every member `match` lists, with an equal value (nested mappings: their listed members). */
export function matches(match: unknown, value: unknown): boolean {
  if (isObject(match)) {
    if (!isObject(value)) return false;
    return Object.keys(match).every((key) => Object.hasOwn(value, key) && matches(match[key], value[key]));
  }
  if (Array.isArray(match)) return Array.isArray(value) && match.length === value.length && match.every((m, i) => matches(m, value[i]));
  return Object.is(match, value) || match === value;
}
