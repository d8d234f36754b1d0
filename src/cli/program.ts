/**
 * commander's parser, built from the command table (commands.ts): each command with its arguments,
 * options, the options every command takes, and its "Examples:" block. What a command does when it
 * runs is the caller's (main.ts hands `action` the table entry).
 */
import { Command, Option } from 'commander';
import { KNOWN_REVISIONS } from '../load/revisions.js';
import { toolVersion } from '../pipeline/paths.js';
import { COMMANDS, COMMON_OPTIONS, PROGRAM, type CommandSpec, type OptionSpec } from './commands.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

function commanderOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.help);
  if (spec.choices !== undefined) option.choices(spec.choices);
  if (spec.default !== undefined) option.default(spec.default);
  if (spec.repeatable === true) option.argParser(collect);
  if (spec.required === true) option.makeOptionMandatory();
  return option;
}

/** The "Examples:" block of a command's --help, or undefined when it has none. */
function examplesText(spec: CommandSpec): string | undefined {
  if (spec.examples.length === 0) return undefined;
  const width = Math.max(...spec.examples.map(([line]) => line.length));
  return `\nExamples:\n${spec.examples.map(([line, why]) => `  $ ${line.padEnd(width)}  # ${why}`).join('\n')}`;
}

/** The options a command takes: its own, then the common ones (a command's own `--json` wins). */
export function commandOptions(spec: CommandSpec): OptionSpec[] {
  const own = new Set(spec.options.map((o) => o.flags.split(/[ ,]+/).find((f) => f.startsWith('--'))));
  return [...spec.options, ...COMMON_OPTIONS.filter((o) => !(o.flags === '--json' && own.has('--json')))];
}

/** The whole parser; `action` runs when a command is chosen, with commander's arguments and options. */
export function buildProgram(
  action: (spec: CommandSpec, args: unknown[], options: Record<string, unknown>) => Promise<void>,
  output: { writeOut: (text: string) => void; writeErr: (text: string) => void },
): Command {
  const program = new Command(PROGRAM.name)
    .description(PROGRAM.summary)
    .version(`mcp-gen ${toolVersion()}\nMCP revisions: ${KNOWN_REVISIONS.join(', ')}`, '-V, --version', PROGRAM.versionHelp)
    .exitOverride()
    .configureOutput(output)
    .showHelpAfterError()
    .addHelpText('after', `\n${PROGRAM.exitCodes}`);
  for (const spec of COMMANDS) {
    const command = program.command(spec.name, spec.hidden === true ? { hidden: true } : {}).description(spec.summary);
    for (const argument of spec.arguments) command.argument(argument.name, argument.help, argument.default);
    for (const option of commandOptions(spec)) command.addOption(commanderOption(option));
    const examples = examplesText(spec);
    if (examples !== undefined) command.addHelpText('after', examples);
    command.action(async (...received: unknown[]) => {
      // commander passes the arguments, then the options object, then the command itself.
      const args = received.slice(0, spec.arguments.length);
      await action(spec, args, received[spec.arguments.length] as Record<string, unknown>);
    });
  }
  return program;
}
