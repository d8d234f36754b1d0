/**
 * Which operations become tools (`--tag`, `--path`, `--operation` and their `--exclude-*`), and the
 * names they get: from `operationId` (else method and path), in snake_case (naming.ts), at most 64
 * characters, unique; a collision is resolved by a numeric suffix in document order, and reported.
 */
import { toolName } from './naming.js';
import type { Operation } from './operations.js';

export interface Selection {
  tags?: readonly string[];
  paths?: readonly string[];
  operations?: readonly string[];
  excludeTags?: readonly string[];
  excludePaths?: readonly string[];
  excludeOperations?: readonly string[];
}

/** `*` any characters but `/`, `**` any characters, `?` one character; the whole path must match. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const ch = glob[i]!;
    if (ch === '*' && glob[i + 1] === '*') {
      source += '.*';
      i += 1;
    } else if (ch === '*') source += '[^/]*';
    else if (ch === '?') source += '[^/]';
    else source += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

export function selectOperations(operations: readonly Operation[], selection: Selection): Operation[] {
  const include = {
    tags: new Set(selection.tags ?? []),
    paths: (selection.paths ?? []).map(globToRegExp),
    ids: new Set(selection.operations ?? []),
  };
  const exclude = {
    tags: new Set(selection.excludeTags ?? []),
    paths: (selection.excludePaths ?? []).map(globToRegExp),
    ids: new Set(selection.excludeOperations ?? []),
  };
  const anyInclude = include.tags.size > 0 || include.paths.length > 0 || include.ids.size > 0;
  return operations.filter((op) => {
    const tags = tagsOf(op);
    const id = typeof op.operation['operationId'] === 'string' ? op.operation['operationId'] : undefined;
    if (tags.some((t) => exclude.tags.has(t)) || exclude.paths.some((re) => re.test(op.path)) || (id !== undefined && exclude.ids.has(id))) return false;
    if (!anyInclude) return true;
    // Each kind given narrows: --tag repos --path '/repos/**' keeps repos operations under /repos.
    if (include.tags.size > 0 && !tags.some((t) => include.tags.has(t))) return false;
    if (include.paths.length > 0 && !include.paths.some((re) => re.test(op.path))) return false;
    if (include.ids.size > 0 && (id === undefined || !include.ids.has(id))) return false;
    return true;
  });
}

export function tagsOf(op: Operation): string[] {
  const tags = op.operation['tags'];
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
}

const MAX_NAME = 64;

/** The tool name an operation asks for, before collisions are resolved. */
export function baseName(op: Operation): string {
  const id = op.operation['operationId'];
  const raw = typeof id === 'string' && id.trim() !== '' ? id : `${op.method}_${op.path.replace(/[{}]/g, '')}`;
  return toolName(raw) || op.method;
}

/** Unique names in document order; each renamed operation is reported. */
export function uniqueNames(names: readonly string[]): { names: string[]; renamed: { index: number; wanted: string; given: string }[] } {
  const used = new Set<string>();
  const out: string[] = [];
  const renamed: { index: number; wanted: string; given: string }[] = [];
  names.forEach((wanted, index) => {
    let given = wanted;
    for (let n = 2; used.has(given); n += 1) {
      const suffix = `_${n}`;
      given = wanted.slice(0, MAX_NAME - suffix.length) + suffix;
    }
    used.add(given);
    out.push(given);
    if (given !== wanted) renamed.push({ index, wanted, given });
  });
  return { names: out, renamed };
}
