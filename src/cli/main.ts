import { CommanderError } from 'commander';
import { InputError, UnreachableError } from '../load/diagnostics.js';
import { COMMANDS } from './commands.js';
import { EXIT_INPUT, EXIT_INTERNAL, EXIT_OK, EXIT_UNREACHABLE, printInputError, processConsole, terminalConsole, type Console } from './output.js';
import { buildProgram } from './program.js';
import { modeConsole, outputMode, type JsonResult, type OutputMode } from './terminal.js';

/** Commands that print their own JSON document with --json (the others are wrapped by main). */
const OWN_JSON = new Set(COMMANDS.filter((c) => c.ownJson === true).map((c) => c.name));

/** Runs the CLI and returns the exit code; never calls process.exit, so tests can call it. */
export async function main(argv: readonly string[], rawIo: Console = processConsole): Promise<number> {
  const terminal = terminalConsole(rawIo);
  const tty = rawIo === processConsole ? { stdout: process.stdout.isTTY === true, stderr: process.stderr.isTTY === true } : { stdout: false, stderr: false };
  // Set from the command's flags just before its action runs (preAction); plain until then.
  const run = { command: '', mode: outputMode({}, tty, process.env) as OutputMode, debug: false, held: [] as string[], results: [] as JsonResult[] };
  let active = modeConsole(rawIo, run.mode, false, run.held, run.results);
  const io: Console = {
    out: (line) => active.out(line),
    err: (line) => active.err(line),
    result: (data) => active.result?.(data),
    progress: (label) => active.progress?.(label) ?? (() => {}),
  };
  let exitCode = EXIT_OK;
  const program = buildProgram(
    async (spec, args, options) => {
      exitCode = await spec.run(args, options, { io, rawIo, tty });
    },
    { writeOut: (s) => terminal.out(s.trimEnd()), writeErr: (s) => terminal.err(s.trimEnd()) },
  );
  program.hook('preAction', (_program, action) => {
    const flags = action.opts() as { json?: boolean; quiet?: boolean; color?: boolean; debug?: boolean };
    run.command = action.name();
    run.mode = outputMode(flags, tty, process.env);
    run.debug = flags.debug === true;
    active = modeConsole(rawIo, run.mode, OWN_JSON.has(run.command), run.held, run.results);
  });

  const code = await execute();
  if (run.mode.json && run.command !== '' && !OWN_JSON.has(run.command)) printJson(code);
  return code;

  async function execute(): Promise<number> {
    try {
      await program.parseAsync([...argv], { from: 'user' });
      return exitCode;
    } catch (error) {
      if (error instanceof CommanderError) {
        // --help and --version end here too, with code 0.
        return error.exitCode === 0 ? EXIT_OK : EXIT_INPUT;
      }
      if (error instanceof InputError) {
        printInputError(io, error);
        run.results.push({ errors: error.diagnostics });
        return error instanceof UnreachableError ? EXIT_UNREACHABLE : EXIT_INPUT;
      }
      const message = error instanceof Error ? error.message : String(error);
      io.err(`error: internal error in mcp-gen: ${message}`);
      if (run.debug && error instanceof Error && error.stack !== undefined) io.err(error.stack);
      else io.err('run again with --debug for the stack trace, and please report it');
      run.results.push({ errors: [{ message: `internal error: ${message}` }] });
      return EXIT_INTERNAL;
    }
  }

  /** One JSON document on stdout: the command, its exit code, and what it reported. */
  function printJson(code: number): void {
    const document: Record<string, unknown> = { command: run.command, exitCode: code, ok: code === EXIT_OK };
    for (const result of run.results) Object.assign(document, result);
    if (run.held.length > 0) document['messages'] = run.held;
    rawIo.out(JSON.stringify(document, null, 2));
  }
}
