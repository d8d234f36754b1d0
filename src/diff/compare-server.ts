/**
 * Server against server: tools, prompts, resources and resource templates, classified for the
 * clients that already use the old server. Schema changes come from schema-compare.ts (a tool's
 * input is what clients send, its output what they receive); the rules for everything else are here.
 */
import type { Finding, Severity } from './finding.js';
import { childPointer, isObject, sameJson, show, type JsonObject } from './json-values.js';
import { compareBindings, compareUpstreams } from './compare-http.js';
import { compareCollection, compareFields, DOCS_FIELDS, type FieldRule } from './compare-items.js';
import { compareSchemas } from './schema-compare.js';
import { compareToolMeta } from './compare-views.js';
import { messageFor } from './schema-change.js';
import type { ServerSurface, SurfaceTool } from './server-surface.js';

const TOOL_FIELDS: Record<string, FieldRule> = { ...DOCS_FIELDS, name: 'skip', inputSchema: 'skip', outputSchema: 'skip', annotations: 'skip', execution: 'skip', _meta: 'skip' };
const ANNOTATION_FIELDS: Record<string, FieldRule> = { title: 'docs' };
const PROMPT_FIELDS: Record<string, FieldRule> = { ...DOCS_FIELDS, name: 'skip', arguments: 'skip' };
const ARGUMENT_FIELDS: Record<string, FieldRule> = { ...DOCS_FIELDS, name: 'skip', required: 'skip' };
/** Clients decode a resource's content by its MIME type. */
const MIME_TYPE: FieldRule = { kind: 'mime-type', severity: 'breaking' };
const RESOURCE_FIELDS: Record<string, FieldRule> = { ...DOCS_FIELDS, uri: 'skip', mimeType: MIME_TYPE };
const TEMPLATE_FIELDS: Record<string, FieldRule> = { ...DOCS_FIELDS, name: 'skip', uriTemplate: { kind: 'uri-template', severity: 'breaking' }, mimeType: MIME_TYPE };

export function compareServers(oldSide: ServerSurface, newSide: ServerSurface): Finding[] {
  const without = (entry: JsonObject, key: string): JsonObject => Object.fromEntries(Object.entries(entry).filter(([k]) => k !== key));
  // HTTP bindings only when both sides can say them (not a snapshot or a live server).
  const upstreams = oldSide.http && newSide.http ? { old: oldSide.http.upstream, new: newSide.http.upstream } : undefined;
  const compareTool = (a: SurfaceTool, b: SurfaceTool, at: string, item: string): Finding[] => [
    ...compareToolEntry(a, b, at, item),
    ...(upstreams ? compareBindings(a.http, b.http, upstreams, b.inputSchema, at, item) : []),
  ];
  return [
    ...compareCollection<SurfaceTool>({
      noun: 'tool',
      pointer: '/tools',
      old: oldSide.tools,
      new: newSide.tools,
      // A re-imported manifest renames tools but proxies the same operation under the new name.
      sameButKey: (a, b) => sameSchemas(a, b) || sameOperation(a, b),
      sameWhat: (a, b) => (sameSchemas(a, b) ? 'same schemas' : `same upstream operation ${a.http!.method} ${a.http!.path}`),
      compare: compareTool,
    }),
    ...compareCollection<JsonObject>({
      noun: 'prompt',
      pointer: '/prompts',
      old: oldSide.prompts,
      new: newSide.prompts,
      sameButKey: (a, b) => sameJson(a['arguments'] ?? [], b['arguments'] ?? []),
      sameWhat: 'same arguments',
      compare: comparePrompt,
    }),
    ...compareCollection<JsonObject>({
      noun: 'resource',
      pointer: '/resources',
      old: oldSide.resources,
      new: newSide.resources,
      sameButKey: (a, b) => sameJson(without(a, 'uri'), without(b, 'uri')),
      sameWhat: 'same name and fields',
      compare: (a, b, at, item) => compareFields(a, b, RESOURCE_FIELDS, at, item),
    }),
    ...compareCollection<JsonObject>({
      noun: 'resource template',
      pointer: '/resourceTemplates',
      old: oldSide.resourceTemplates,
      new: newSide.resourceTemplates,
      sameButKey: (a, b) => sameJson(without(a, 'name'), without(b, 'name')),
      sameWhat: 'same uriTemplate and fields',
      compare: (a, b, at, item) => compareFields(a, b, TEMPLATE_FIELDS, at, item),
    }),
    ...(upstreams ? compareUpstreams(upstreams.old, upstreams.new) : []),
  ];
}

function compareToolEntry(oldTool: SurfaceTool, newTool: SurfaceTool, at: string, item: string): Finding[] {
  const findings = compareFields(oldTool.entry, newTool.entry, TOOL_FIELDS, at, item);
  findings.push(...schemaFindings(oldTool.inputSchema, newTool.inputSchema, 'input', childPointer(at, 'inputSchema'), item));
  const outputAt = childPointer(at, 'outputSchema');
  if (oldTool.outputSchema && newTool.outputSchema) {
    findings.push(...schemaFindings(oldTool.outputSchema, newTool.outputSchema, 'output', outputAt, item));
  } else if (newTool.outputSchema) {
    findings.push({ kind: 'output-schema-added', severity: 'compatible', item, pointer: outputAt, message: 'outputSchema added: results now carry structuredContent' });
  } else if (oldTool.outputSchema) {
    findings.push({ kind: 'output-schema-removed', severity: 'breaking', item, pointer: outputAt, message: 'outputSchema removed: clients reading structuredContent lose it' });
  }
  const annotations = (tool: SurfaceTool): JsonObject => (isObject(tool.entry['annotations']) ? tool.entry['annotations'] : {});
  findings.push(...compareFields(annotations(oldTool), annotations(newTool), ANNOTATION_FIELDS, childPointer(at, 'annotations'), item, 'annotation '));
  findings.push(...compareExecution(oldTool.entry, newTool.entry, at, item));
  findings.push(...compareToolMeta(oldTool.entry, newTool.entry, at, item));
  return findings;
}

/** A tool's input is what clients send; its output is what they receive. */
function schemaFindings(oldSchema: JsonObject, newSchema: JsonObject, role: 'input' | 'output', at: string, item: string): Finding[] {
  const changes = compareSchemas(oldSchema, newSchema, { root: oldSchema }, { root: newSchema }, { noun: role === 'input' ? 'input property' : 'output field' });
  return changes.map((change) => {
    const finding: Finding = { kind: change.kind, severity: change[role], item, pointer: at + change.pointer, message: messageFor(change, [role]) };
    if (change.from !== undefined) finding.from = change.from;
    if (change.to !== undefined) finding.to = change.to;
    if (change.rename !== undefined) finding.rename = change.rename;
    return finding;
  });
}

/** Absent means `forbidden`. */
function taskSupport(entry: JsonObject): string {
  const execution = entry['execution'];
  const value = isObject(execution) ? execution['taskSupport'] : undefined;
  return typeof value === 'string' ? value : 'forbidden';
}

/**
 * `required` refuses calls without a task and `forbidden` refuses calls with one, so moving to
 * either from another level breaks the clients that called the other way; `optional` takes both.
 */
function compareExecution(oldEntry: JsonObject, newEntry: JsonObject, at: string, item: string): Finding[] {
  const execution = (entry: JsonObject): JsonObject => (isObject(entry['execution']) ? entry['execution'] : {});
  const findings = compareFields(execution(oldEntry), execution(newEntry), { taskSupport: 'skip' }, childPointer(at, 'execution'), item, 'execution ');
  const before = taskSupport(oldEntry);
  const after = taskSupport(newEntry);
  if (before !== after) {
    const severity: Severity = after === 'optional' ? 'compatible' : 'breaking';
    const why = after === 'required' ? ': calls without a task are refused' : after === 'forbidden' ? ': calls with a task are refused' : '';
    findings.push({ kind: 'task-support', severity, item, pointer: childPointer(at, 'execution', 'taskSupport'), message: `execution.taskSupport changed from ${before} to ${after}${why}`, from: before, to: after });
  }
  return findings;
}

function comparePrompt(oldPrompt: JsonObject, newPrompt: JsonObject, at: string, item: string): Finding[] {
  const findings = compareFields(oldPrompt, newPrompt, PROMPT_FIELDS, at, item);
  const byName = (prompt: JsonObject): Map<string, JsonObject> => {
    const list = Array.isArray(prompt['arguments']) ? prompt['arguments'].filter(isObject) : [];
    return new Map(list.filter((a) => typeof a['name'] === 'string').map((a) => [a['name'] as string, a]));
  };
  const before = byName(oldPrompt);
  const after = byName(newPrompt);
  const renames = renamedArguments(before, after);
  for (const name of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const here = childPointer(at, 'arguments', name);
    const oldArg = before.get(name);
    const newArg = after.get(name);
    const required = (arg: JsonObject | undefined): boolean => arg?.['required'] === true;
    if (!oldArg) {
      const severity: Severity = required(newArg) ? 'breaking' : 'compatible';
      const from = renames.get(name);
      const finding: Finding = { kind: 'argument-added', severity, item, pointer: here, message: `argument ${show(name)} added (${required(newArg) ? 'required' : 'optional'})${from !== undefined ? `, probably renamed from ${show(from)}` : ''}` };
      if (from !== undefined) finding.rename = { from, to: name };
      findings.push(finding);
    } else if (!newArg) {
      const to = [...renames].find(([, r]) => r === name)?.[0];
      const finding: Finding = { kind: 'argument-removed', severity: 'breaking', item, pointer: here, message: `argument ${show(name)} removed${to !== undefined ? `, probably renamed to ${show(to)}` : ''}` };
      if (to !== undefined) finding.rename = { from: name, to };
      findings.push(finding);
    } else {
      if (required(oldArg) !== required(newArg)) {
        const now = required(newArg);
        findings.push({ kind: 'argument-required', severity: now ? 'breaking' : 'compatible', item, pointer: childPointer(here, 'required'), message: `argument ${show(name)} made ${now ? 'required' : 'optional'}`, from: required(oldArg), to: now });
      }
      findings.push(...compareFields(oldArg, newArg, ARGUMENT_FIELDS, here, item, `argument ${show(name)} `));
    }
  }
  return findings;
}

/**
 * Prompt arguments removed and added that are probably one renamed (added name → removed name):
 * everything but the name is the same (description, required…), and each is the other's only match.
 */
function renamedArguments(before: ReadonlyMap<string, JsonObject>, after: ReadonlyMap<string, JsonObject>): Map<string, string> {
  const rest = (arg: JsonObject): JsonObject => Object.fromEntries(Object.entries(arg).filter(([k]) => k !== 'name'));
  const removed = [...before.keys()].filter((k) => !after.has(k)).sort();
  const added = [...after.keys()].filter((k) => !before.has(k)).sort();
  const alike = (r: string, a: string): boolean => sameJson(rest(before.get(r)!), rest(after.get(a)!));
  const renames = new Map<string, string>();
  for (const r of removed) {
    const matches = added.filter((a) => alike(r, a));
    const [a] = matches;
    if (matches.length === 1 && a !== undefined && removed.filter((other) => alike(other, a)).length === 1) renames.set(a, r);
  }
  return renames;
}

function sameSchemas(a: SurfaceTool, b: SurfaceTool): boolean {
  return sameJson(a.inputSchema, b.inputSchema) && sameJson(a.outputSchema ?? null, b.outputSchema ?? null);
}

function sameOperation(a: SurfaceTool, b: SurfaceTool): boolean {
  return a.http !== undefined && b.http !== undefined && a.http.method === b.http.method && a.http.path === b.http.path;
}
