/**
 * `mcp-gen diff` without the command line: two loaded sides in, one report out, findings in a
 * fixed order so the same inputs always give the same bytes.
 */
import { inputProblem } from '../load/diagnostics.js';
import { byCodeUnit } from '../printer/names.js';
import { compareRevisions } from './compare-revisions.js';
import { compareServers } from './compare-server.js';
import { severityRank, summarize, type DiffReport, type Finding } from './finding.js';
import type { LoadedSide } from './load-side.js';

export function diffSides(oldSide: LoadedSide, newSide: LoadedSide): DiffReport {
  let findings: Finding[];
  if (oldSide.family === 'server' && newSide.family === 'server') findings = compareServers(oldSide.surface, newSide.surface);
  else if (oldSide.family === 'revision' && newSide.family === 'revision') findings = compareRevisions(oldSide.protocol, newSide.protocol);
  else throw mixedFamilies(oldSide, newSide);
  return { old: oldSide.info, new: newSide.info, findings: sortFindings(findings), summary: summarize(findings) };
}

export function mixedFamilies(oldSide: Pick<LoadedSide, 'info'>, newSide: Pick<LoadedSide, 'info'>): Error {
  const what = (side: Pick<LoadedSide, 'info'>): string => (side.info.kind === 'revision' ? `the protocol revision ${side.info.source}` : `the server ${side.info.source} (${side.info.kind})`);
  return inputProblem('mcp-gen diff', `cannot compare ${what(oldSide)} with ${what(newSide)}`, 'compare a server with a server (manifest, snapshot, URL, cmd:) or a revision with a revision');
}

/** Collections in the order a server or a revision lists them, then by item, worst first, then by place. */
const ITEM_ORDER = ['tool ', 'prompt ', 'resource template ', 'resource ', 'upstream', 'request ', 'notification ', 'definition '];

function itemRank(item: string): number {
  const rank = ITEM_ORDER.findIndex((prefix) => item.startsWith(prefix));
  return rank === -1 ? ITEM_ORDER.length : rank;
}

export function sortFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) =>
      itemRank(a.item) - itemRank(b.item) ||
      byCodeUnit(a.item, b.item) ||
      severityRank(a.severity) - severityRank(b.severity) ||
      byPointer(a.pointer, b.pointer) ||
      byCodeUnit(a.kind, b.kind) ||
      byCodeUnit(a.message, b.message),
  );
}

/** Segment by segment, array indexes as numbers: `/anyOf/2` before `/anyOf/10`. */
function byPointer(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i]!;
    const q = y[i]!;
    if (p === q) continue;
    const numeric = /^(0|[1-9][0-9]*)$/;
    return numeric.test(p) && numeric.test(q) ? Number(p) - Number(q) : byCodeUnit(p, q);
  }
  return x.length - y.length;
}
