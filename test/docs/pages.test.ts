/**
 * The documentation as pages: a short README, links that lead somewhere, a page for every command,
 * every flag of every command explained in a guide, and source comments that say why without
 * figures that go stale (the figures live in bench/RESULTS.md).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../client/support.js';

const README_MAX_LINES = 250;

/**
 * Pages a link may name before they exist (a page being written on another branch). Empty: every
 * linked page is checked.
 */
const PAGES_WRITTEN_ELSEWHERE: string[] = [];

/** Where comments must not quote timings or issue numbers: all of src/. */
const COMMENT_SCOPE = { root: 'src', excluding: [] as string[] };

/**
 * Where a guide explains each command's flags: a page, or one section of it (the generated
 * docs/cli/ pages only repeat `--help`, so they do not count).
 */
const GUIDE_OF: Record<string, string> = {
  server: 'docs/server.md',
  client: 'docs/client.md',
  types: 'docs/types.md',
  diff: 'docs/workflow.md#mcp-gen-diff',
  check: 'docs/workflow.md#mcp-gen-check',
  mock: 'docs/tools.md#mcp-gen-mock',
  init: 'docs/tools.md#mcp-gen-init',
  docs: 'docs/tools.md#mcp-gen-docs',
  import: 'docs/openapi.md',
  'dev-issuer': 'docs/authorization.md#trying-it-locally',
};
/** The flags every command shares, explained once. */
const SHARED_FLAGS = 'docs/workflow.md#every-command';

function posix(path: string): string {
  return path.split(sep).join('/');
}

function markdownFiles(): string[] {
  const docs = (readdirSync(join(repoRoot, 'docs'), { recursive: true, encoding: 'utf8' }) as string[])
    .map((path) => `docs/${posix(path)}`)
    .filter((path) => path.endsWith('.md'));
  return ['README.md', 'CONTRIBUTING.md', ...docs].sort();
}

/** Markdown text without fenced code blocks and inline code, where `[x](y)` is not a link. */
function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutFences = text.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '');
  for (const [, heading] of withoutFences.matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const base = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every relative link target in a page, as written. */
export function relativeLinks(text: string): string[] {
  const links: string[] = [];
  for (const [, target] of prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?: "[^"]*")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto:
    links.push(target!);
  }
  return links;
}

/** A broken link's description, or undefined when `target` (written in `page`) leads somewhere. */
export function brokenLink(page: string, target: string, root: string, pending: readonly string[]): string | undefined {
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const resolved = pathPart === '' ? page : posix(relative(root, join(root, dirname(page), decodeURI(pathPart))));
  const file = join(root, resolved);
  if (!existsSync(file)) return pending.includes(resolved.replace(/\/$/, '')) ? undefined : `${page}: ${target} (no such file: ${resolved})`;
  if (anchor === undefined || !resolved.endsWith('.md') || statSync(file).isDirectory()) return undefined;
  return headingAnchors(readFileSync(file, 'utf8')).has(anchor) ? undefined : `${page}: ${target} (no heading #${anchor} in ${resolved})`;
}

const ISSUE_NUMBER = /\bissues? #?\d+|\(#\d+\)/i;
const TIMING = /\b\d+(?:[.,]\d+)?(?:[–-]\d+(?:[.,]\d+)?)? ?(?:ns|µs|us|ms|s|secs?|seconds?|minutes?|mins?)\b/;
const RATIO = /\b\d+(?:\.\d+)? ?[x×](?![\p{L}\p{N}])|\b(?:twice|three times|half) as (?:fast|quick|slow)/iu;

/** The comment text of a line of TypeScript: a whole comment line, or what follows ` // ` after code. */
export function commentOf(line: string): string | undefined {
  const trimmed = line.trimStart();
  if (trimmed.startsWith('//') || trimmed.startsWith('/*') || trimmed.startsWith('*')) return trimmed;
  const trailing = line.match(/;\s+\/\/ (.*)$|[{,)]\s+\/\/ (.*)$/);
  return trailing ? (trailing[1] ?? trailing[2]) : undefined;
}

/** Why a comment would go stale, or undefined. */
/**
 * A duration the code itself sets (an option's default, a bound it enforces) documents the API and
 * changes only with the code; a measured timing is what goes stale.
 */
const SETTING = /\b(?:default(?:s to)?|at most|up to)\s*:?\s*\d+(?:[.,]\d+)? ?(?:ns|µs|us|ms|s|secs?|seconds?|minutes?|mins?)\b/gi;

export function staleFigure(comment: string): string | undefined {
  if (ISSUE_NUMBER.test(comment)) return 'names an issue number';
  if (TIMING.test(comment.replace(SETTING, ''))) return 'quotes a timing';
  if (RATIO.test(comment)) return 'quotes a speed ratio';
  return undefined;
}

/** A page, or with `#anchor` the section under that heading, up to the next heading of its level or above. */
export function guideText(root: string, where: string): string {
  const [page, anchor] = where.split('#', 2) as [string, string | undefined];
  const text = readFileSync(join(root, page), 'utf8');
  if (anchor === undefined) return text;
  const lines = text.split('\n');
  let level = 0;
  let fence = false;
  const kept: string[] = [];
  for (const line of lines) {
    if (line.startsWith('```')) fence = !fence;
    const heading = fence ? null : line.match(/^(#{1,6}) /);
    if (heading && level > 0 && heading[1]!.length <= level) break;
    if (heading && level === 0 && headingAnchors(line).has(anchor)) level = heading[1]!.length;
    if (level > 0) kept.push(line);
  }
  if (level === 0) throw new Error(`${where}: no such heading`);
  return kept.join('\n');
}

function helpOf(args: string[]): string {
  return execFileSync(process.execPath, [join(repoRoot, 'bin', 'mcp-gen.js'), ...args], { encoding: 'utf8' });
}

/** The commands `mcp-gen --help` lists (help itself aside). */
function listedCommands(): string[] {
  const section = helpOf(['--help']).split(/^Commands:$/m)[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map(([, name]) => name!).filter((name) => name !== 'help');
}

/** The long flags a command's `--help` lists in its Options section. */
function listedFlags(command: string): string[] {
  const section = helpOf([command, '--help']).split(/^Options:$/m)[1]?.split(/^\S/m)[0] ?? '';
  return [...section.matchAll(/^ {2}(?:-\w, )?(--[a-z][a-z0-9-]*)/gm)].map(([, flag]) => flag!).filter((flag) => flag !== '--help');
}

describe('the README', () => {
  it(`is at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(repoRoot, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('names the two test commands', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    expect(readme).toMatch(/^npm test\b/m);
    expect(readme).toMatch(/^npm run test:all\b/m);
  });
});

describe('links', () => {
  it('every relative link in README.md, CONTRIBUTING.md and docs/ leads to a file and heading that exist', () => {
    const broken: string[] = [];
    for (const page of markdownFiles()) {
      for (const target of relativeLinks(readFileSync(join(repoRoot, page), 'utf8'))) {
        const problem = brokenLink(page, target, repoRoot, PAGES_WRITTEN_ELSEWHERE);
        if (problem) broken.push(problem);
      }
    }
    expect(broken).toEqual([]);
  });

  it('finds a missing file, a missing heading, and accepts a pending page', () => {
    expect(brokenLink('docs/README.md', 'nowhere.md', repoRoot, [])).toMatch(/no such file: docs\/nowhere\.md/);
    expect(brokenLink('docs/README.md', 'server.md#no-such-heading', repoRoot, [])).toMatch(/no heading #no-such-heading/);
    expect(brokenLink('docs/README.md', 'server.md#options', repoRoot, [])).toBeUndefined();
    expect(brokenLink('README.md', 'docs/later.md', repoRoot, ['docs/later.md'])).toBeUndefined();
    expect(relativeLinks('[a](b.md) `[c](d.md)` [e](https://x.org) ![f](g.png)\n```\n[h](i.md)\n```\n')).toEqual(['b.md', 'g.png']);
  });

  it("computes GitHub's anchors", () => {
    const anchors = headingAnchors("# A\n## A client as a package (`--package`)\n## The client's side\n## `mcp-gen diff`\n## A\n");
    expect([...anchors]).toEqual(['a', 'a-client-as-a-package---package', 'the-clients-side', 'mcp-gen-diff', 'a-1']);
  });
});

describe('commands', () => {
  const commands = listedCommands();

  it('--help lists the commands this test knows', () => {
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.filter((command) => !(command in GUIDE_OF))).toEqual([]);
  });

  it('every command has a page under docs/cli/, linked from the README', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const missing = commands.filter((command) => {
      const page = `docs/cli/${command}.md`;
      return !existsSync(join(repoRoot, page)) && !PAGES_WRITTEN_ELSEWHERE.includes(page);
    });
    expect(missing).toEqual([]);
    expect(commands.filter((command) => !readme.includes(`](docs/cli/${command}.md)`))).toEqual([]);
  });

  it("every flag of every command is explained in the command's guide", () => {
    const shared = guideText(repoRoot, SHARED_FLAGS);
    const undocumented: string[] = [];
    for (const command of commands) {
      const guide = guideText(repoRoot, GUIDE_OF[command]!);
      for (const flag of listedFlags(command)) {
        const named = new RegExp(`${flag}(?![a-z0-9-])`);
        if (!named.test(guide) && !named.test(shared)) undocumented.push(`${command} ${flag}`);
      }
    }
    expect(undocumented).toEqual([]);
  });

  it('reads one section of a guide', () => {
    const section = guideText(repoRoot, 'docs/tools.md#mcp-gen-init');
    expect(section).toMatch(/^## `mcp-gen init`/);
    expect(section).not.toContain('## `mcp-gen mock`');
  });
});

describe('source comments', () => {
  function sourceFiles(): string[] {
    return (readdirSync(join(repoRoot, COMMENT_SCOPE.root), { recursive: true, encoding: 'utf8' }) as string[])
      .map((path) => `${COMMENT_SCOPE.root}/${posix(path)}`)
      .filter((path) => path.endsWith('.ts') && !COMMENT_SCOPE.excluding.some((prefix) => path.startsWith(prefix)))
      .sort();
  }

  it('name no issue numbers and quote no timings (figures live in bench/RESULTS.md)', () => {
    const stale: string[] = [];
    for (const path of sourceFiles()) {
      readFileSync(join(repoRoot, path), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          const comment = commentOf(line);
          const why = comment === undefined ? undefined : staleFigure(comment);
          if (why) stale.push(`${path}:${index + 1}: ${why}: ${line.trim()}`);
        });
    }
    expect(stale).toEqual([]);
  });

  it('finds the figures it is meant to find, and leaves code alone', () => {
    expect(staleFigure('// never called (issue 6 fuzzing)')).toBe('names an issue number');
    expect(staleFigure(' * a worker costs about 250 ms of CPU to start')).toBe('quotes a timing');
    expect(staleFigure(' * reading 260 modules was 15–25 ms of a warm run')).toBe('quotes a timing');
    expect(staleFigure(' * 1.5x the floor, and 3× with tasks')).toBe('quotes a speed ratio');
    expect(staleFigure(' * parses it about twice as fast')).toBe('quotes a speed ratio');
    expect(staleFigure(' * a 0x7f byte, 1,000 tools, 64 levels')).toBeUndefined();
    expect(staleFigure(' * An idle connection is closed after this long. Default 5 s.')).toBeUndefined();
    expect(staleFigure(' * a tenth of the lifetime, at most 30 s')).toBeUndefined();
    expect(staleFigure(' * Default 5 s; a warm start took 40 ms')).toBe('quotes a timing');
    expect(commentOf("const a = 'http://x'; // 40 ms")).toBe('40 ms');
    expect(commentOf("const url = 'http://127.0.0.1:3000/mcp';")).toBeUndefined();
    expect(commentOf('   * 3 s of prettier')).toBe('* 3 s of prettier');
  });
});
