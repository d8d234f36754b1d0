/**
 * What the user-facing pages tell a user to run, read by one convention so a new page or line is
 * picked up without editing the test: every line of a ```sh fence in README.md or docs/*.md that
 * starts with `npx mcp-gen ` (a trailing `\` joins the next line). A fenced block whose first line
 * is `# <file>: …` (as docs/tools.md gives mock.yaml) is an input file the docs themselves supply.
 * Pages that start with the contributor marker are about this repository and are not shipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DocCommand {
  page: string;
  line: string;
}

/** The marker a contributor page carries right under its title (docs/testing.md). */
const CONTRIBUTOR_MARKER = '> **For contributors.**';

export function isContributorPage(text: string): boolean {
  return text.split('\n').slice(0, 4).some((line) => line.startsWith(CONTRIBUTOR_MARKER));
}

/** README.md and the pages of docs/ (docs/cli/ is the generated reference, whose examples are synopses). */
export function userPages(root: string): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`);
  return ['README.md', ...docs].filter((page) => !isContributorPage(readFileSync(join(root, page), 'utf8')));
}

/** The fenced blocks of a page: their language word and their lines. */
function fences(text: string): { lang: string; lines: string[] }[] {
  const blocks: { lang: string; lines: string[] }[] = [];
  let open: { lang: string; lines: string[] } | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) {
      if (open === undefined) open = { lang: line.slice(3).trim(), lines: [] };
      else (blocks.push(open), (open = undefined));
    } else open?.lines.push(line);
  }
  return blocks;
}

export function docCommands(root: string): DocCommand[] {
  const commands: DocCommand[] = [];
  for (const page of userPages(root)) {
    for (const block of fences(readFileSync(join(root, page), 'utf8')).filter((fence) => fence.lang === 'sh')) {
      const joined = block.lines.join('\n').replace(/\\\n\s*/g, ' ').split('\n');
      for (const line of joined) if (line.startsWith('npx mcp-gen ')) commands.push({ page, line: line.trim() });
    }
  }
  return commands;
}

/** The input files the pages spell out in full: name → content. */
export function docFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const page of userPages(root)) {
    for (const block of fences(readFileSync(join(root, page), 'utf8'))) {
      const name = /^# ([\w.-]+):/.exec(block.lines[0] ?? '')?.[1];
      if (name !== undefined) files.set(name, `${block.lines.join('\n')}\n`);
    }
  }
  return files;
}
