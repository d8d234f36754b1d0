/**
 * Revision against revision: methods and definitions, each change classified for a client and for
 * a server written against the old revision. A party *sends* a definition when it is reachable
 * (through `$ref`s) from a message that party sends: its request, notification and result unions
 * (ClientRequest, ClientNotification, ClientResult for a client), the results of the other party's
 * requests, and the JSON-RPC envelopes, which both send. A sent definition is judged by the input
 * rules (narrowing breaks the sender), a received one by the output rules (widening breaks the
 * receiver); a definition no message reaches counts as both sent and received by both.
 */
import type { ProtocolModel, RequestMethod } from '../model/protocol.js';
import { isSubschema, subschemaSlot } from '../schema/keywords.js';
import { worst, type Finding, type Severity } from './finding.js';
import { childPointer, isObject, show, sortedUnion, type JsonObject } from './json-values.js';
import { messageFor, type SchemaChange } from './schema-change.js';
import { compareSchemas } from './schema-compare.js';

type Party = 'client' | 'server';
type Impact = Record<Party, Severity>;

const OTHER: Record<Party, Party> = { client: 'server', server: 'client' };

export function compareRevisions(oldModel: ProtocolModel, newModel: ProtocolModel): Finding[] {
  return [...compareMethods(oldModel, newModel), ...compareDefinitions(oldModel, newModel)];
}

function finding(kind: string, impact: Impact, item: string, pointer: string, message: string, values: { from?: unknown; to?: unknown; rename?: { from: string; to: string } } = {}): Finding {
  const f: Finding = { kind, severity: worst(impact.client, impact.server), item, pointer, message, impact };
  if (values.from !== undefined) f.from = values.from;
  if (values.to !== undefined) f.to = values.to;
  if (values.rename !== undefined) f.rename = values.rename;
  return f;
}

/** The sender's and the receiver's severities as a client/server impact. */
function bySender(sender: Party, forSender: Severity, forReceiver: Severity): Impact {
  return { [sender]: forSender, [OTHER[sender]]: forReceiver } as Impact;
}

function defsPointer(model: ProtocolModel, name: string): string {
  return childPointer(model.dialect === 'draft-07' ? '/definitions' : '/$defs', name);
}

interface MethodEntry {
  kind: 'request' | 'notification';
  sender: Party;
  method: string;
  definition: string;
  params: string;
  request?: RequestMethod;
}

function methodEntries(model: ProtocolModel): Map<string, MethodEntry> {
  const entries = new Map<string, MethodEntry>();
  const add = (entry: MethodEntry): void => {
    entries.set(`${entry.kind} ${entry.method} (${entry.sender} → ${OTHER[entry.sender]})`, entry);
  };
  for (const [sender, list] of [['client', model.clientRequests], ['server', model.serverRequests]] as const) {
    for (const r of list) add({ kind: 'request', sender, method: r.method, definition: r.request, params: r.params, request: r });
  }
  for (const [sender, list] of [['client', model.clientNotifications], ['server', model.serverNotifications]] as const) {
    for (const n of list) add({ kind: 'notification', sender, method: n.method, definition: n.notification, params: n.params });
  }
  return entries;
}

/**
 * A removed request breaks its senders (their calls fail); an added one its receivers (they must
 * answer it). Notifications may be ignored, so an added one breaks nobody and a removed one only
 * the receivers that relied on it.
 */
function compareMethods(oldModel: ProtocolModel, newModel: ProtocolModel): Finding[] {
  const before = methodEntries(oldModel);
  const after = methodEntries(newModel);
  const findings: Finding[] = [];
  for (const item of sortedUnion(before.keys(), after.keys())) {
    const o = before.get(item);
    const n = after.get(item);
    if (!n) {
      const e = o!;
      const impact = e.kind === 'request' ? bySender(e.sender, 'breaking', 'compatible') : bySender(e.sender, 'compatible', 'breaking');
      findings.push(finding('removed', impact, item, defsPointer(oldModel, e.definition), `${e.kind} ${show(e.method)} removed`));
    } else if (!o) {
      const impact = n.kind === 'request' ? bySender(n.sender, 'compatible', 'breaking') : bySender(n.sender, 'compatible', 'compatible');
      findings.push(finding('added', impact, item, defsPointer(newModel, n.definition), `${n.kind} ${show(n.method)} added`));
    } else {
      findings.push(...compareMethod(o, n, item, defsPointer(newModel, n.definition)));
    }
  }
  return findings;
}

/** `params` states as the sets of message shapes they admit: absent, present. */
const PARAMS_ADMIT: Record<string, string[]> = { none: ['absent'], optional: ['absent', 'present'], required: ['present'] };

function compareMethod(o: MethodEntry, n: MethodEntry, item: string, at: string): Finding[] {
  const findings: Finding[] = [];
  if (o.params !== n.params) {
    const was = PARAMS_ADMIT[o.params] ?? [];
    const now = PARAMS_ADMIT[n.params] ?? [];
    const narrowed = now.every((s) => was.includes(s));
    const widened = was.every((s) => now.includes(s));
    // Fewer shapes break the sender; more break the receiver.
    const impact = bySender(n.sender, narrowed || !widened ? 'breaking' : 'compatible', widened || !narrowed ? 'breaking' : 'compatible');
    findings.push(finding('params', impact, item, childPointer(at, 'properties', 'params'), `params changed from ${o.params} to ${n.params}`, { from: o.params, to: n.params }));
  }
  if (o.request && n.request) {
    const responder = OTHER[n.sender];
    if (o.request.result !== n.request.result) {
      findings.push(finding('result', { client: 'breaking', server: 'breaking' }, item, at, `result changed from ${o.request.result} to ${n.request.result}`, { from: o.request.result, to: n.request.result }));
    }
    const added = n.request.alternatives.filter((a) => !o.request!.alternatives.includes(a));
    const removed = o.request.alternatives.filter((a) => !n.request!.alternatives.includes(a));
    // The requester receives the result: another possible result breaks it, one fewer breaks the responder.
    if (added.length > 0) findings.push(finding('result-alternatives', bySender(responder, 'compatible', 'breaking'), item, at, `may now also answer with ${added.join(', ')}`, { from: o.request.alternatives, to: n.request.alternatives }));
    if (removed.length > 0) findings.push(finding('result-alternatives', bySender(responder, 'breaking', 'compatible'), item, at, `may no longer answer with ${removed.join(', ')}`, { from: o.request.alternatives, to: n.request.alternatives }));
  }
  return findings;
}

/** Definition names each party sends, following `$ref`s from the messages it sends. */
function sentDefinitions(model: ProtocolModel): Record<Party, Set<string>> {
  const members = (union: string): string[] => model.unions.find((u) => u.name === union)?.members ?? [];
  const results = (requests: readonly RequestMethod[]): string[] => requests.flatMap((r) => [r.result, ...r.alternatives]);
  const envelopes = ['JSONRPCMessage', ...members('JSONRPCMessage')];
  // The unions themselves too: a client sends a ClientRequest.
  const roots: Record<Party, string[]> = {
    client: ['ClientRequest', 'ClientNotification', 'ClientResult', ...members('ClientRequest'), ...members('ClientNotification'), ...members('ClientResult'), ...results(model.serverRequests), ...envelopes],
    server: ['ServerRequest', 'ServerNotification', 'ServerResult', ...members('ServerRequest'), ...members('ServerNotification'), ...members('ServerResult'), ...results(model.clientRequests), ...envelopes],
  };
  return { client: reachable(model, roots.client), server: reachable(model, roots.server) };
}

function reachable(model: ProtocolModel, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  const visit = (value: unknown): void => {
    if (!isObject(value)) return;
    const ref = value['$ref'];
    const match = typeof ref === 'string' ? /^#\/\$defs\/([^/]+)/.exec(ref) : null;
    if (match) pending.push(decodeURIComponent(match[1]!));
    for (const [key, child] of Object.entries(value)) {
      const slot = subschemaSlot(key, child);
      if (slot === 'one') visit(child);
      else if (slot === 'list') (child as unknown[]).forEach(visit);
      else if (slot === 'map') Object.values(child as JsonObject).filter(isSubschema).forEach(visit);
    }
  };
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name) || !Object.hasOwn(model.definitions, name)) continue;
    seen.add(name);
    visit(model.definitions[name]!.schema);
  }
  return seen;
}

/** How one party meets a definition; one reached by no message counts as both sent and received. */
function roles(name: string, party: Party, sent: Record<Party, Set<string>>[]): { sends: boolean; receives: boolean } {
  const sends = sent.some((s) => s[party].has(name));
  const receives = sent.some((s) => s[OTHER[party]].has(name));
  return sends || receives ? { sends, receives } : { sends: true, receives: true };
}

function impactOf(change: SchemaChange, name: string, sent: Record<Party, Set<string>>[]): Impact {
  const forParty = (party: Party): Severity => {
    const r = roles(name, party, sent);
    const severities: Severity[] = [];
    if (r.sends) severities.push(change.input);
    if (r.receives) severities.push(change.output);
    return worst(...severities);
  };
  return { client: forParty('client'), server: forParty('server') };
}

/** Named definitions are compared one by one, so a ref to one is compared by name, not followed. */
const NAMED_DEFINITION = /^#\/\$defs\/[^/]+$/;

function compareDefinitions(oldModel: ProtocolModel, newModel: ProtocolModel): Finding[] {
  const oldSent = sentDefinitions(oldModel);
  const sent = [oldSent, sentDefinitions(newModel)];
  const docOf = (model: ProtocolModel) => ({
    root: { $defs: Object.fromEntries(Object.entries(model.definitions).map(([k, d]) => [k, d.schema])) },
    isOpaque: (ref: string) => NAMED_DEFINITION.test(ref),
  });
  const oldDoc = docOf(oldModel);
  const newDoc = docOf(newModel);
  const findings: Finding[] = [];
  for (const name of sortedUnion(Object.keys(oldModel.definitions), Object.keys(newModel.definitions))) {
    const item = `definition ${name}`;
    const o = oldModel.definitions[name];
    const n = newModel.definitions[name];
    if (!n) {
      // Gone: whoever sent it can no longer; whoever received it has one thing less to handle.
      const impact = { client: roles(name, 'client', [oldSent]).sends ? 'breaking' : 'compatible', server: roles(name, 'server', [oldSent]).sends ? 'breaking' : 'compatible' } as Impact;
      findings.push(finding('removed', impact, item, defsPointer(oldModel, name), `definition ${name} removed`));
    } else if (!o) {
      // New definitions reach old messages only through a changed definition, which is reported there.
      findings.push(finding('added', { client: 'compatible', server: 'compatible' }, item, defsPointer(newModel, name), `definition ${name} added`));
    } else {
      const at = defsPointer(newModel, name);
      for (const change of compareSchemas(o.schema, n.schema, oldDoc, newDoc, { noun: 'property' })) {
        // Both parties may face the definition: each reason that breaks one of them is said.
        const message = messageFor(change, ['input', 'output']);
        findings.push(finding(change.kind, impactOf(change, name, sent), item, at + change.pointer, message, change));
      }
    }
  }
  return findings;
}
