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
 * Path globs that split what was kept (`'/repos/*\/*\/pulls/**' (34)`): starting from the first
 * segment, the largest group is split one segment deeper while it holds more than half of the
 * operations and its parts are groups, not single operations (a `{param}` segment is `*`); each
 * glob with the number of kept operations it matches.
 */
function pathGroups(selected: readonly Operation[]): string[] {
  const split = selected.map((op) => op.path.split('/').slice(1).map((segment) => (segment.includes('{') ? '*' : segment)));
  const childrenOf = (prefix: readonly string[]): string[][] => {
    const seen = new Map<string, string[]>();
    for (const segments of split) {
      if (segments.length <= prefix.length || prefix.some((p, i) => segments[i] !== p)) continue;
      const child = segments.slice(0, prefix.length + 1);
      seen.set(child.join('/'), child);
    }
    return [...seen.values()];
  };
  const countOf = (prefix: readonly string[]): number => {
    const re = globToRegExp(`/${prefix.join('/')}/**`);
    return selected.filter((op) => re.test(op.path)).length;
  };
  let groups = childrenOf([]).map((prefix) => ({ prefix, count: countOf(prefix) }));
  for (let round = 0; round < 8; round += 1) {
    groups.sort((a, b) => b.count - a.count);
    const largest = groups[0];
    if (largest === undefined || largest.count * 2 <= selected.length) break;
    const children = childrenOf(largest.prefix).map((prefix) => ({ prefix, count: countOf(prefix) }));
    // Splitting into single operations (paths that end one level down) narrows nothing usable.
    if (!children.some((child) => child.count >= 2)) break;
    groups = [...children, ...groups.slice(1)];
  }
  const useful = new Map(groups.filter((g) => g.count > 0).map((g) => [`/${g.prefix.join('/')}/**`, g.count] as [string, number]));
  return useful.size > 1 ? top(useful).map(([glob, n]) => `'${glob}' (${n})`) : [];
}

function top(counts: Map<string, number>): [string, number][] {
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, SHOWN);
}
