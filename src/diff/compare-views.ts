/**
 * MCP Apps in a diff: a tool's `_meta.ui`. Apps show a tool's results in its view and call the
 * tools their visibility lets them: a tool that loses its view, moves to another, or is hidden from
 * someone who could call it before breaks the apps that use it. Widening visibility or adding a view
 * is compatible. The views themselves are `ui://` resources, compared with the other resources.
 */
import type { Finding, Severity } from './finding.js';
import { childPointer, isObject, show, type JsonObject } from './json-values.js';
import { compareFields } from './compare-items.js';

const BOTH = ['model', 'app'];

function uiOf(entry: JsonObject): JsonObject {
  const meta = entry['_meta'];
  const ui = isObject(meta) ? meta['ui'] : undefined;
  return isObject(ui) ? ui : {};
}

/** Absent means both (the extension's default). */
function visibilityOf(ui: JsonObject): string[] {
  const visibility = ui['visibility'];
  return Array.isArray(visibility) ? visibility.filter((v): v is string => typeof v === 'string') : BOTH;
}

/** `_meta` of two tool entries: `ui` by the rules above, every other key as a plain field. */
export function compareToolMeta(oldEntry: JsonObject, newEntry: JsonObject, at: string, item: string): Finding[] {
  const metaAt = childPointer(at, '_meta');
  const meta = (entry: JsonObject): JsonObject => (isObject(entry['_meta']) ? entry['_meta'] : {});
  const findings = compareFields(meta(oldEntry), meta(newEntry), { ui: 'skip' }, metaAt, item, '_meta.');
  const before = uiOf(oldEntry);
  const after = uiOf(newEntry);
  const uiAt = childPointer(metaAt, 'ui');

  const oldView = typeof before['resourceUri'] === 'string' ? before['resourceUri'] : undefined;
  const newView = typeof after['resourceUri'] === 'string' ? after['resourceUri'] : undefined;
  if (oldView !== newView) {
    const pointer = childPointer(uiAt, 'resourceUri');
    const [severity, message]: [Severity, string] =
      oldView === undefined
        ? ['compatible', `view ${show(newView)} added`]
        : newView === undefined
          ? ['breaking', `view ${show(oldView)} removed: hosts show the tool's results as text only`]
          : ['breaking', `view changed from ${show(oldView)} to ${show(newView)}: apps built for the old view no longer get its results`];
    const finding: Finding = { kind: 'view', severity, item, pointer, message };
    if (oldView !== undefined) finding.from = oldView;
    if (newView !== undefined) finding.to = newView;
    findings.push(finding);
  }

  const oldVisibility = visibilityOf(before);
  const newVisibility = visibilityOf(after);
  const lost = oldVisibility.filter((v) => !newVisibility.includes(v));
  const gained = newVisibility.filter((v) => !oldVisibility.includes(v));
  if (lost.length > 0 || gained.length > 0) {
    const who = (v: string): string => (v === 'model' ? 'the model' : 'views');
    const message =
      lost.length > 0
        ? `visibility narrowed from ${show(oldVisibility)} to ${show(newVisibility)}: ${lost.map(who).join(' and ')} can no longer call it`
        : `visibility widened from ${show(oldVisibility)} to ${show(newVisibility)}`;
    findings.push({ kind: 'visibility', severity: lost.length > 0 ? 'breaking' : 'compatible', item, pointer: childPointer(uiAt, 'visibility'), message, from: oldVisibility, to: newVisibility });
  }
  const others = (ui: JsonObject): JsonObject => Object.fromEntries(Object.entries(ui).filter(([k]) => k !== 'resourceUri' && k !== 'visibility'));
  findings.push(...compareFields(others(before), others(after), {}, uiAt, item, '_meta.ui.'));
  return findings;
}
