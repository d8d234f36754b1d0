/**
 * The CLI reference (docs/cli/): one Markdown page per command and an index, written from the
 * command table (commands.ts) that `--help` reads too, so the two cannot disagree. Deterministic:
 * no dates, no version. `npm run docs:cli` writes the pages; test/cli/reference.test.ts fails when
 * they are stale.
 */
import { COMMANDS, PROGRAM, type ArgumentSpec, type CommandSpec, type OptionSpec } from './commands.js';
import { commandOptions } from './program.js';

const GENERATED_NOTE = '<!-- Generated from src/cli/commands.ts by `npm run docs:cli`; edit the table, not this page. -->';

/** Text for a Markdown table cell: pipes escaped, so a help text can never split its row. */
const cell = (text: string): string => text.replace(/\|/g, '\\|');
const code = (text: string): string => `\`${text}\``;
/** The exit codes as one paragraph, without the label --help gives them. */
const exitCodes = (): string => PROGRAM.exitCodes.replace(/^Exit codes: /, '').replace(/\n/g, ' ');

function usage(spec: CommandSpec): string {
  return [PROGRAM.name, spec.name, '[options]', ...spec.arguments.map((a) => a.name)].join(' ');
}

function argumentRows(args: readonly ArgumentSpec[]): string[] {
  return ['| Argument | What it is |', '| --- | --- |', ...args.map((a) => `| ${code(a.name)} | ${cell(a.help)}${a.default !== undefined ? ` (default: ${code(a.default)})` : ''} |`)];
}

function optionRows(options: readonly OptionSpec[]): string[] {
  const details = (o: OptionSpec): string => {
    const notes = [
      o.required === true ? 'required' : undefined,
      o.choices !== undefined ? `one of ${o.choices.map(code).join(', ')}` : undefined,
      o.default !== undefined ? `default: ${code(o.default)}` : undefined,
      o.repeatable === true ? 'repeatable' : undefined,
    ].filter((n) => n !== undefined);
    return notes.length === 0 ? '' : ` (${notes.join('; ')})`;
  };
  return ['| Option | What it does |', '| --- | --- |', ...options.map((o) => `| ${code(o.flags)} | ${cell(o.help)}${details(o)} |`)];
}

/** One command's page. */
function commandPage(spec: CommandSpec): string {
  const lines = [GENERATED_NOTE, '', `# ${PROGRAM.name} ${spec.name}`, '', spec.summary, '', '```', usage(spec), '```', ''];
  if (spec.arguments.length > 0) lines.push('## Arguments', '', ...argumentRows(spec.arguments), '');
  lines.push('## Options', '', ...optionRows(commandOptions(spec)), `| ${code('-h, --help')} | display help for the command |`, '');
  if (spec.examples.length > 0) {
    lines.push('## Examples', '', '```sh', ...spec.examples.map(([line, why]) => `# ${why}\n${line}`), '```', '');
  }
  lines.push('## Exit codes', '', exitCodes(), '', '[All commands](README.md)', '');
  return lines.join('\n');
}

/** The index: every command with its summary and a link to its page. */
function indexPage(commands: readonly CommandSpec[]): string {
  return [
    GENERATED_NOTE,
    '',
    '# The mcp-gen command line',
    '',
    PROGRAM.summary,
    '',
    '| Command | What it does |',
    '| --- | --- |',
    ...commands.map((c) => `| [${c.name}](${c.name}.md) | ${cell(c.summary)} |`),
    '',
    `Every command also takes ${code('--help')}; ${code(`${PROGRAM.name} --version`)} prints the version and the MCP revisions it supports.`,
    '',
    `Exit codes: ${exitCodes()}`,
    '',
  ].join('\n');
}

/** Every page of docs/cli/, by file name: the visible commands' pages and README.md. */
export function cliReferencePages(): Map<string, string> {
  const visible = COMMANDS.filter((c) => c.hidden !== true);
  const pages = new Map<string, string>([['README.md', indexPage(visible)]]);
  for (const spec of visible) pages.set(`${spec.name}.md`, commandPage(spec));
  return pages;
}
