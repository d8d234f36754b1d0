import { Command, CommanderError, Option } from 'commander';
import { InputError, UnreachableError } from '../load/diagnostics.js';
import { KNOWN_REVISIONS } from '../load/spec.js';
import { examplesText } from './help-examples.js';
import { EXIT_INPUT, EXIT_INTERNAL, EXIT_OK, EXIT_UNREACHABLE, printInputError, processConsole, terminalConsole, type Console } from './output.js';
import { toolVersion } from '../pipeline/paths.js';
import { withWarmCompilers } from './warm-start.js';
import { modeConsole, outputMode, type JsonResult, type OutputMode } from './terminal.js';

/** `--import-extension`, shared by `server` and `client`: see src/emit/import-extension.ts. */
function importExtensionOption(): Option {
  return new Option('--import-extension <ext>', "what relative imports in generated code end with: 'js' (tsc, bundlers) or 'ts' (Deno, node --experimental-strip-types, Bun)")
    .choices(['js', 'ts'])
    .default('js');
}

/** Commands that print their own JSON document with --json (the others are wrapped by main). */
const OWN_JSON = new Set(['diff', 'check', 'mock']);

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
  const program = new Command('mcp-gen')
    .description('Typed Model Context Protocol bindings for TypeScript: protocol types, precompiled validators, servers, clients, mocks and docs.')
    .version(`mcp-gen ${toolVersion()}\nMCP revisions: ${KNOWN_REVISIONS.join(', ')}`, '-V, --version', 'print the version and the MCP revisions it supports')
    .exitOverride()
    .configureOutput({ writeOut: (s) => terminal.out(s.trimEnd()), writeErr: (s) => terminal.err(s.trimEnd()) })
    .showHelpAfterError()
    .addHelpText('after', '\nExit codes: 0 done, 1 out of date or a diff/check finding, 2 bad input (nothing written),\n3 a server or the network failed, 70 an internal error (a bug; --debug shows the stack).');

  program
    .command('types')
    .description('Generate protocol types and standalone validators for one MCP schema revision.')
    .requiredOption('--spec <revision|path|url>', 'a revision name (2024-11-05 … 2026-07-28, draft), a schema.json path, or an http(s) URL')
    .option('-o, --out <dir>', 'output folder', 'mcp-protocol')
    .addOption(new Option('--docs <mode>', 'documentation comments: the schema text, a link to the spec, or none').choices(['full', 'link', 'none']).default('full'))
    .option('--revision <name>', 'the revision a schema path or URL holds, when its folder name does not say (used in doc links)')
    .option('--spec-dir <dir>', 'folder holding <revision>/schema.json (default: $MCP_SPEC_DIR, else the schemas shipped with mcp-gen)')
    .option('--cache-dir <dir>', 'where downloaded schemas are kept (default: $MCP_GEN_CACHE_DIR or ~/.cache/mcp-gen)')
    .option('--check', 'write nothing; list stale, missing and extra files and exit 1 if any')
    .option('--watch', 'regenerate whenever the --spec file changes, until Ctrl-C')
    .option('--no-version-banner', 'leave the mcp-gen version out of the banner (stable goldens)')
    .action(async (options) => {
      // Each command loads its own phases: `types` never pays for ts-morph and handlebars.
      const { runTypes } = await import('./types-command.js');
      exitCode = await runTypes(options, io);
    });

  program
    .command('server')
    .description('Generate a typed MCP server from a manifest: types, validators, handler skeletons and a runtime.')
    .argument('<manifest>', 'the server manifest (YAML or JSON)')
    .option('-o, --out <dir>', 'output folder', 'mcp-server')
    .option('--force', 'overwrite user-owned files (handlers, main.ts) with fresh skeletons')
    .option('--allow-outside-refs', "let $ref files outside the manifest's folder be read")
    .addOption(importExtensionOption())
    .option('--debug-ir', 'print the intermediate representation as JSON and write nothing')
    .option('--check', 'write nothing; list stale, missing and extra files and exit 1 if any')
    .option('--watch', 'regenerate whenever the manifest or a file it $refs changes, until Ctrl-C')
    .option('--no-version-banner', 'leave the mcp-gen version out of the banner (stable goldens)')
    .action(async (manifest: string, options) => {
      exitCode = await withWarmCompilers(options, async () => {
        const { runServer } = await import('./server-command.js');
        return runServer(manifest, options, io);
      });
    });

  const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];
  program
    .command('client')
    .description('Generate a typed, validating MCP client from a manifest, a live server, or a saved snapshot of one.')
    .argument('[manifest]', 'the server manifest (YAML or JSON), as for `mcp-gen server`')
    .option('-o, --out <dir>', 'output folder', 'mcp-client')
    .option('--from-url <url>', 'introspect a Streamable HTTP server (legacy HTTP+SSE as fallback)')
    .option('--header <header>', "an HTTP header for --from-url, 'Name: value' (repeatable)", collect)
    .option('--from-command <command>', 'introspect a stdio server started with this command line')
    .option('--env <K=V>', 'an environment variable for --from-command (repeatable)', collect)
    .option('--from-snapshot <file>', 'generate from a snapshot saved with --save-snapshot (offline)')
    .option('--save-snapshot <file>', 'write what was introspected to this file')
    .option('--allow-outside-refs', "let $ref files outside the manifest's folder be read")
    .option('--auth', 'include the OAuth sign-in (runtime/client/auth/, needs oauth4webapi) for protected servers')
    .option('--package <name>', 'write a publishable npm package: src/ (the client), package.json, tsconfig.json (tsc to dist/), README.md')
    .option('--package-version <semver>', "the package's version (default: kept from package.json, bumped when the server changed)")
    .option('--browser', 'a client for web pages: HTTP on fetch, no stdio, no node:* import (no @types/node needed)')
    .addOption(importExtensionOption())
    .option('--check', 'write nothing; list stale, missing and extra files and exit 1 if any')
    .option('--watch', 'regenerate whenever the manifest (or its $ref files) or the --from-snapshot file changes, until Ctrl-C')
    .option('--no-version-banner', 'leave the mcp-gen version out of the banner (stable goldens)')
    .action(async (manifest: string | undefined, options) => {
      exitCode = await withWarmCompilers(options, async () => {
        const { runClient } = await import('./client-command.js');
        return runClient(manifest, options, io);
      });
    });

  program
    .command('diff')
    .description('Compare two servers (manifests, snapshots, live servers) or two protocol revisions; classify each change as breaking, compatible or docs.')
    .argument('<old>', "a manifest, a snapshot, an http(s):// URL, 'cmd:<command line>', or a revision (2025-11-25, draft, …)")
    .argument('<new>', 'the same kind of side: server against server, revision against revision')
    .option('--json', 'print the findings as JSON')
    .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding is breaking, when there is any finding, or never').choices(['breaking', 'any', 'none']).default('breaking'))
    .option('--header <header>', "an HTTP header for http(s) sides, 'Name: value' (repeatable)", collect)
    .option('--env <K=V>', 'an environment variable for cmd: sides (repeatable)', collect)
    .option('--spec-dir <dir>', 'folder holding <revision>/schema.json (default: $MCP_SPEC_DIR, else the schemas shipped with mcp-gen)')
    .option('--allow-outside-refs', "let $ref files outside a manifest's folder be read")
    .action(async (oldSide: string, newSide: string, options) => {
      const { runDiff } = await import('./diff-command.js');
      // Colour goes around the terminal sink (it would escape the codes); the renderer escapes input text itself.
      exitCode = await runDiff(oldSide, newSide, options, io, { raw: rawIo, stdoutIsTty: tty.stdout && options.color !== false });
    });

  program
    .command('mock')
    .description('Serve a mock of a server: every tool answers values generated from its outputSchema (or a fixture), both protocol eras.')
    .argument('[manifest]', 'the server manifest (YAML or JSON), or a snapshot saved with `mcp-gen client --save-snapshot`')
    .option('--from-url <url>', 'mock the server at this URL (introspected once at start-up)')
    .option('--header <header>', "an HTTP header for --from-url, 'Name: value' (repeatable)", collect)
    .option('--http', 'serve Streamable HTTP instead of stdio')
    .option('--port <port>', 'HTTP port (0: any free one)', '3000')
    .option('--host <host>', 'HTTP host', '127.0.0.1')
    .option('--seed <seed>', 'same seed, same answers', '0')
    .option('--fixtures <file>', 'canned results and errors per tool, matched on the arguments (YAML or JSON)')
    .option('--enforce-auth', "with --http and a manifest `auth` section: require a development token (printed at start-up) instead of serving unprotected")
    .option('--allow-outside-refs', "let $ref files outside the manifest's folder be read")
    .action(async (manifest: string | undefined, options) => {
      const { runMock } = await import('./mock-command.js');
      exitCode = await runMock(manifest, options, io);
    });

  program
    .command('check')
    .description('Is every generated output current? Regenerates each in memory from its ledger (or a config file) and compares; writes nothing.')
    .argument('[paths...]', 'output folders or mcp-gen.config.json/.yaml files (default: the config here, else every ledger below)')
    .option('--json', 'print the result as JSON')
    .option('--live', 'regenerate clients made --from-url/--from-command from the live server, not the saved snapshot')
    .action(async (paths: string[], options) => {
      const { runCheck } = await import('./check-command.js');
      exitCode = await runCheck(paths, options, io);
    });

  program
    .command('docs')
    .description('Write a static HTML reference page (index.html) of a server: tools, prompts, resources and templates, with search and light/dark themes.')
    .argument('[manifest]', 'the server manifest (YAML or JSON)')
    .option('-o, --out <dir>', 'output folder', 'mcp-docs')
    .option('--from-url <url>', 'introspect a Streamable HTTP server')
    .option('--header <header>', "an HTTP header for --from-url, 'Name: value' (repeatable)", collect)
    .option('--from-command <command>', 'introspect a stdio server started with this command line')
    .option('--env <K=V>', 'an environment variable for --from-command (repeatable)', collect)
    .option('--from-snapshot <file>', 'a snapshot saved with `mcp-gen client --save-snapshot` (offline)')
    .option('--allow-outside-refs', "let $ref files outside the manifest's folder be read")
    .option('--check', 'write nothing; exit 1 if index.html is stale or missing')
    .option('--no-version-banner', 'leave the mcp-gen version out of the banner (stable output)')
    .action(async (manifest: string | undefined, options) => {
      const { runDocs } = await import('./docs-command.js');
      exitCode = await runDocs(manifest, options, io);
    });

  program
    .command('init')
    .description('Start a new project: a server (manifest with one example tool, generated server and client, a passing test) or, with --client, a client of a running server.')
    .argument('[dir]', 'the folder to create the project in (must be empty unless --force)', '.')
    .option('--client', 'a client project, generated from the server at --url')
    .option('--url <url>', 'the Streamable HTTP server a --client project calls')
    .option('--name <name>', 'the package (and server) name (default: the folder name)')
    .option('--force', 'scaffold into a folder that has files in it (existing files are kept, never replaced)')
    .option('--mcp-gen <spec>', "how the project's package.json depends on mcp-gen (default: this mcp-gen)")
    .action(async (dir: string, options) => {
      const { runInit } = await import('./init-command.js');
      exitCode = await runInit(dir, options, io);
    });

  program
    .command('regenerate-self', { hidden: true })
    .description("Regenerate mcp-gen's own committed bindings (generated/, examples, bench) from $MCP_SPEC_DIR or the schemas in schema/mcp-spec.")
    .option('--check', 'write nothing; list stale, missing and extra files and exit 1 if any')
    .action(async (options) => {
      const { runSelf } = await import('./self-command.js');
      exitCode = await runSelf(options, io);
    });

  for (const command of program.commands) {
    const own = command.options.map((o) => o.long);
    if (!own.includes('--json')) command.option('--json', 'print the result as one JSON document on stdout');
    command.option('-q, --quiet', 'print nothing but errors').option('--no-color', 'plain output even on a terminal (also NO_COLOR=1)').option('--debug', 'show the stack trace of an internal error');
    const examples = examplesText(command.name());
    if (examples !== undefined) command.addHelpText('after', examples);
  }
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
