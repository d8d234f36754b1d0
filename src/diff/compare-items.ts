/**
 * The item level shared by every collection a server offers: what was added, what was removed
 * (with a hint when a removal and an addition look like one rename), and the plain fields of an
 * entry that both sides have.
 */
import type { Finding, Severity } from './finding.js';
import { canonicalJson, childPointer, show, type JsonObject } from './json-values.js';
import { sortedKeys } from './server-surface.js';

export interface Collection<T> {
  /** `tool`, `prompt`, `resource`, `resource template`. */
  noun: string;
  /** `/tools`, `/prompts`, …: items are addressed by key below it. */
  pointer: string;
  old: ReadonlyMap<string, T>;
  new: ReadonlyMap<string, T>;
  /** Two entries under different keys that are otherwise the same: a likely rename. */
  sameButKey(oldEntry: T, newEntry: T): boolean;
  /** What the rename hint says they share (`same schemas`). */
  sameWhat: string | ((oldEntry: T, newEntry: T) => string);
  compare(oldEntry: T, newEntry: T, pointer: string, item: string): Finding[];
}

export function compareCollection<T>(c: Collection<T>): Finding[] {
  const findings: Finding[] = [];
  const removed = sortedKeys(c.old).filter((k) => !c.new.has(k));
  const added = sortedKeys(c.new).filter((k) => !c.old.has(k));
  const renamedTo = new Map<string, string>();
  const renamedFrom = new Map<string, string>();
  for (const key of removed) {
    const match = added.find((candidate) => !renamedFrom.has(candidate) && c.sameButKey(c.old.get(key)!, c.new.get(candidate)!));
    if (match === undefined) continue;
    renamedTo.set(key, match);
    renamedFrom.set(match, key);
  }
  const label = (key: string): string => `${c.noun} ${key}`;
  for (const key of removed) {
    const to = renamedTo.get(key);
    const same = to === undefined ? '' : typeof c.sameWhat === 'string' ? c.sameWhat : c.sameWhat(c.old.get(key)!, c.new.get(to)!);
    const hint = to === undefined ? '' : ` (likely renamed to ${show(to)}: ${same})`;
    const finding: Finding = { kind: 'removed', severity: 'breaking', item: label(key), pointer: childPointer(c.pointer, key), message: `${c.noun} ${show(key)} removed${hint}` };
    if (to !== undefined) finding.rename = { from: key, to };
    findings.push(finding);
  }
  for (const key of added) {
    const from = renamedFrom.get(key);
    const hint = from === undefined ? '' : ` (likely renamed from ${show(from)})`;
    const finding: Finding = { kind: 'added', severity: 'compatible', item: label(key), pointer: childPointer(c.pointer, key), message: `${c.noun} ${show(key)} added${hint}` };
    if (from !== undefined) finding.rename = { from, to: key };
    findings.push(finding);
  }
  for (const key of sortedKeys(c.old)) {
    if (c.new.has(key)) findings.push(...c.compare(c.old.get(key)!, c.new.get(key)!, childPointer(c.pointer, key), label(key)));
  }
  return findings;
}

/** How a changed entry field is classified; fields without a rule here are `compatible` (kind `field`). */
export type FieldRule = 'docs' | 'compatible' | 'skip' | { kind: string; severity: Severity };

export const DOCS_FIELDS: Readonly<Record<string, FieldRule>> = { title: 'docs', description: 'docs' };

/** The fields of two entries (not their schemas, which have rules of their own), one finding per changed field. */
export function compareFields(oldEntry: JsonObject, newEntry: JsonObject, rules: Readonly<Record<string, FieldRule>>, pointer: string, item: string, label = ''): Finding[] {
  const findings: Finding[] = [];
  for (const field of [...new Set([...Object.keys(oldEntry), ...Object.keys(newEntry)])].sort()) {
    const rule = Object.hasOwn(rules, field) ? rules[field]! : 'compatible';
    if (rule === 'skip') continue;
    const { kind, severity } = typeof rule === 'object' ? rule : { kind: rule === 'docs' ? 'docs' : 'field', severity: rule };
    const before = oldEntry[field];
    const after = newEntry[field];
    if (canonicalJson(before) === canonicalJson(after)) continue;
    // Descriptions are long: docs findings name the field, the others show the values too.
    const change =
      severity === 'docs'
        ? (before === undefined ? 'added' : after === undefined ? 'removed' : 'changed')
        : before === undefined ? `added: ${show(after)}` : after === undefined ? `removed (was ${show(before)})` : `changed from ${show(before)} to ${show(after)}`;
    const finding: Finding = { kind, severity, item, pointer: childPointer(pointer, field), message: `${label}${field} ${change}` };
    if (before !== undefined) finding.from = before;
    if (after !== undefined) finding.to = after;
    findings.push(finding);
  }
  return findings;
}
