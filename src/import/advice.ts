/**
 * What the import advises when it keeps too many tools: a way to narrow that the flags already
 * given have not used up. No tag given: the largest tags. Tags given: the largest path groups
 * under what was kept. Paths given too: single operations or exclusions.
 */
import type { Operation } from './operations.js';
import { globToRegExp, tagsOf, type Selection } from './select.js';

/** Past this many tools a model chooses badly: the import says how to keep fewer. */
export const MANY_TOOLS = 100;
const SHOWN = 8;

export function manyToolsMessage(count: number, selected: readonly Operation[], selection: Selection): string {
  const lead = `${count} tools${describeSelection(selection)}: models choose badly among more than ${MANY_TOOLS}`;
  const hasTags = (selection.tags?.length ?? 0) > 0;
  const hasPaths = (selection.paths?.length ?? 0) > 0;
  if (!hasTags) {
    const tags = largestTags(selected);
    if (tags.length > 1) return `${lead}; keep the ones you need with --tag, e.g. ${tags.join(', ')}, or with --path or --operation`;
  }
  if (!hasPaths) {
    const groups = pathGroups(selected);
    if (groups.length > 1) return `${lead}; narrow them with --path, e.g. ${groups.join(', ')}, or leave some out with --exclude-path`;
  }
  return `${lead}; name the ones you need with --operation, or leave some out with --exclude-operation, --exclude-path or --exclude-tag`;
}

function describeSelection(selection: Selection): string {
  const given = [
    ...(selection.tags ?? []).map((tag) => `--tag ${tag}`),
    ...(selection.paths ?? []).map((path) => `--path '${path}'`),
  ];
  return given.length > 0 ? ` (after ${given.join(' ')})` : '';
}

function largestTags(selected: readonly Operation[]): string[] {
  const counts = new Map<string, number>();
  for (const op of selected) for (const tag of tagsOf(op)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return top(counts).map(([tag, n]) => `${tag} (${n})`);
}

/**
 * Globs one segment deeper than what every kept path shares (`/repos/*\/*\/actions/**`), each with
 * the number of kept operations it matches; a level where everything falls into one group is
 * passed through.
 */
function pathGroups(selected: readonly Operation[]): string[] {
  const split = selected.map((op) => op.path.split('/').slice(1).map((segment) => (segment.includes('{') ? '*' : segment)));
  for (let depth = 0; depth < 8; depth += 1) {
    const groups = new Map<string, number>();
    for (const segments of split) {
      if (segments.length <= depth) continue;
      const glob = `/${segments.slice(0, depth + 1).join('/')}/**`;
      groups.set(glob, 0);
    }
    if (groups.size < 2) continue;
    for (const glob of groups.keys()) {
      const re = globToRegExp(glob);
      groups.set(glob, selected.filter((op) => re.test(op.path)).length);
    }
    const useful = new Map([...groups].filter(([, n]) => n > 0));
    if (useful.size > 1) return top(useful).map(([glob, n]) => `'${glob}' (${n})`);
  }
  return [];
}

function top(counts: Map<string, number>): [string, number][] {
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, SHOWN);
}
