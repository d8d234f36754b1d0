/**
 * The CLI reference under docs/cli/ is generated from the command table (npm run docs:cli): this
 * fails when a page is stale, missing, or left over from a command that is gone, and checks that
 * the table and the parser --help is printed from agree on every command and option.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { buildProgram } from '../../src/cli/program.js';
import { cliReferencePages } from '../../src/cli/reference.js';
import { repoRoot } from '../client/support.js';

const folder = join(repoRoot, 'docs', 'cli');

describe('docs/cli, the generated CLI reference', () => {
  const pages = cliReferencePages();

  it('is current: every page as `npm run docs:cli` writes it, and no page of a command that is gone', () => {
    const onDisk = readdirSync(folder).filter((name) => name.endsWith('.md')).sort();
    expect(onDisk, 'run `npm run docs:cli`').toEqual([...pages.keys()].sort());
    for (const [name, text] of pages) expect(readFileSync(join(folder, name), 'utf8'), `docs/cli/${name} is stale: run \`npm run docs:cli\``).toBe(text);
  });

  it('has a page for every visible command, listed in the index, and none for the hidden ones', () => {
    const index = pages.get('README.md') ?? '';
    for (const command of COMMANDS) {
      expect(pages.has(`${command.name}.md`), command.name).toBe(command.hidden !== true);
      if (command.hidden !== true) expect(index).toContain(`](${command.name}.md)`);
    }
  });

  it('names every option and argument the parser knows, with its help', () => {
    const program = buildProgram(async () => {}, { writeOut: () => {}, writeErr: () => {} });
    for (const command of program.commands) {
      const page = pages.get(`${command.name()}.md`);
      if (page === undefined) continue;
      for (const option of command.options) {
        expect(page, `${command.name()} ${option.flags}`).toContain(`| \`${option.flags}\` | ${option.description}`);
      }
      for (const argument of command.registeredArguments) expect(page).toContain(argument.description);
    }
  });

  it('is deterministic', () => {
    expect([...cliReferencePages()]).toEqual([...pages]);
  });
});
