/**
 * The command table: every command of mcp-gen described once — name, summary, arguments, options
 * with their help, examples, and what it runs. main.ts builds commander's parser (and so `--help`)
 * from it, and `npm run docs:cli` writes the CLI reference pages (docs/cli/) from it too. Each
 * command's own modules load only when it runs: `types` never pays for ts-morph and handlebars.
 */
import type { Console } from './output.js';

export interface ArgumentSpec {
  /** `<name>` required, `[name]` optional, `[name...]` a list. */
  name: string;
  help: string;
  default?: string;
}

export interface OptionSpec {
  /** As commander reads them: `-o, --out <dir>`, `--check`, `--no-version-banner`. */
  flags: string;
  help: string;
  default?: string;
  choices?: readonly string[];
  /** Given more than once, the values are collected into a list. */
  repeatable?: boolean;
  /** The command refuses to run without it. */
  required?: boolean;
}

/** What a command's action is handed besides its arguments and options. */
export interface RunContext {
  /** The console of the run (terminal-safe, and in the mode `--json`/`--quiet` ask for). */
  io: Console;
  /** The console main() was given, untouched (diff colours its own output). */
  rawIo: Console;
  tty: { stdout: boolean; stderr: boolean };
}

export interface CommandSpec {
  name: string;
  summary: string;
  arguments: readonly ArgumentSpec[];
  options: readonly OptionSpec[];
  /** What users type most, each with a word on why (the "Examples:" block of --help). */
  examples: readonly (readonly [command: string, why: string])[];
  /** Left out of --help and the reference (mcp-gen's own maintenance). */
  hidden?: boolean;
  /** Prints its own JSON document with --json (main wraps the others' output in one). */
  ownJson?: boolean;
  /** Runs the command and returns its exit code. */
  run(args: readonly unknown[], options: Record<string, unknown>, context: RunContext): Promise<number>;
}

export const PROGRAM = {
  name: 'mcp-gen',
  summary: 'Typed Model Context Protocol bindings for TypeScript: protocol types, precompiled validators, servers, clients, mocks and docs.',
  exitCodes:
    'Exit codes: 0 done, 1 out of date or a diff/check finding, 2 bad input (nothing written),\n3 a server or the network failed, 70 an internal error (a bug; --debug shows the stack).',
  versionHelp: 'print the version and the MCP revisions it supports',
} as const;

/** Options every command takes, after its own (`--json` only where the command has none of its own). */
export const COMMON_OPTIONS: readonly OptionSpec[] = [
  { flags: '--json', help: 'print the result as one JSON document on stdout' },
  { flags: '-q, --quiet', help: 'print nothing but errors' },
  { flags: '--no-color', help: 'plain output even on a terminal (also NO_COLOR=1)' },
  { flags: '--debug', help: 'show the stack trace of an internal error' },
];

const CHECK: OptionSpec = { flags: '--check', help: 'write nothing; list stale, missing and extra files and exit 1 if any' };
const SHARED_CACHE: OptionSpec = {
  flags: '--no-shared-cache',
  help: "neither read nor write the manifest's shared unit pack (under $MCP_GEN_CACHE_DIR or ~/.cache/mcp-gen), only the output folder's cache (also MCP_GEN_SHARED_CACHE=off)",
};
const NO_VERSION_BANNER: OptionSpec = { flags: '--no-version-banner', help: 'leave the mcp-gen version out of the banner (stable goldens)' };
const OUTSIDE_REFS: OptionSpec = { flags: '--allow-outside-refs', help: "let $ref files outside the manifest's folder be read" };
const SPEC_DIR: OptionSpec = { flags: '--spec-dir <dir>', help: 'folder holding <revision>/schema.json, searched before the schemas shipped with mcp-gen (default: $MCP_SPEC_DIR)' };
const UPDATED_SPEC: OptionSpec = {
  flags: '--spec <revision|path|url>',
  help: "a newer schema for a revision the runtime speaks (a draft, an errata): a revision name, a schema.json file or its folder, or an http(s) URL; what comes from data is compiled from it, a schema that adds or changes methods is refused (docs/spec-updates.md)",
};
const HEADER: OptionSpec = { flags: '--header <header>', help: "an HTTP header for --from-url, 'Name: value' (repeatable)", repeatable: true };
const FROM_COMMAND: OptionSpec = { flags: '--from-command <command>', help: 'introspect a stdio server started with this command line' };
const ENV: OptionSpec = { flags: '--env <K=V>', help: 'an environment variable for --from-command (repeatable)', repeatable: true };
const IMPORT_EXTENSION: OptionSpec = {
  flags: '--import-extension <ext>',
  help: "what relative imports in generated code end with: 'js' (tsc, bundlers) or 'ts' (Deno, node --experimental-strip-types, Bun)",
  choices: ['js', 'ts'],
  default: 'js',
};

// The option bags commander hands each action, typed where the command modules declare them.
type Options<T> = T & Record<string, unknown>;

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'types',
    summary: 'Generate protocol types and standalone validators for one MCP schema revision.',
    arguments: [],
    options: [
      { flags: '--spec <revision|path|url>', help: 'a revision name (2024-11-05 … 2026-07-28, draft, or one in --spec-dir), a schema.json file or its folder, or an http(s) URL', required: true },
      { flags: '-o, --out <dir>', help: 'output folder', default: 'mcp-protocol' },
      { flags: '--docs <mode>', help: 'documentation comments: the schema text, a link to the spec, or none', choices: ['full', 'link', 'none'], default: 'full' },
      { flags: '--revision <name>', help: 'the revision a schema path or URL holds, when neither the schema nor its folder name says (used in doc links)' },
      SPEC_DIR,
      { flags: '--cache-dir <dir>', help: 'where downloaded schemas are kept (default: $MCP_GEN_CACHE_DIR or ~/.cache/mcp-gen)' },
      CHECK,
      { flags: '--watch', help: 'regenerate whenever the --spec file changes, until Ctrl-C' },
      NO_VERSION_BANNER,
    ],
    examples: [
      ['mcp-gen types --spec 2026-07-28 -o mcp-protocol', 'bindings of one revision, shipped with mcp-gen (offline)'],
      ['mcp-gen types --spec ./schema.json --revision draft', 'from a schema file'],
      ['mcp-gen types --spec 2025-11-25 --check', 'exit 1 if the committed bindings are stale'],
    ],
    async run(_args, options, { io }) {
      const { runTypes } = await import('./types-command.js');
      return runTypes(options as Options<import('./types-command.js').TypesOptions>, io);
    },
  },
  {
    name: 'server',
    summary: 'Generate a typed MCP server from a manifest: types, validators, handler skeletons and a runtime.',
    arguments: [{ name: '<manifest>', help: 'the server manifest (YAML or JSON)' }],
    options: [
      { flags: '-o, --out <dir>', help: 'output folder', default: 'mcp-server' },
      { flags: '--force', help: 'overwrite user-owned files (handlers, main.ts) with fresh skeletons' },
      OUTSIDE_REFS,
      IMPORT_EXTENSION,
      { flags: '--otel', help: 'trace requests with OpenTelemetry: main.ts turns tracing on, package.json depends on @opentelemetry/api' },
      {
        flags: '--target <target>',
        help: "where the server runs: 'node' (main.ts: stdio, node:http) or 'web' (also main.web.ts: a fetch handler for Bun, Deno, Workers, Next.js, Hono)",
        choices: ['node', 'web'],
        default: 'node',
      },
      { flags: '--debug-ir', help: 'print the intermediate representation as JSON and write nothing' },
      CHECK,
      { flags: '--watch', help: 'regenerate whenever the manifest or a file it $refs changes, until Ctrl-C' },
      { flags: '--mcpb', help: 'an MCP Bundle: mcpb/manifest.json and `npm run pack:mcpb` (bundle, validate, pack)' },
      { flags: '--registry-name <name>', help: 'server.json for the MCP Registry under this name (io.github.owner/name)' },
      { flags: '--registry-remote <url>', help: "server.json lists this deployed endpoint instead of the npm package" },
      { flags: '--dockerfile', help: 'a Dockerfile (and .dockerignore) serving the bundled server over HTTP' },
      UPDATED_SPEC,
      SPEC_DIR,
      SHARED_CACHE,
      NO_VERSION_BANNER,
    ],
    examples: [
      ['mcp-gen server manifest.yaml -o server', 'a typed server: generated code, handler skeletons, runtime'],
      ['mcp-gen server manifest.yaml -o server --mcpb --registry-name io.github.me/weather', 'with an MCP Bundle manifest and server.json'],
      ['mcp-gen server manifest.yaml -o server --watch', 'regenerate on every save'],
      ['mcp-gen server manifest.yaml -o server --target web', 'also main.web.ts: `export default { fetch }` for Bun, Deno, Workers'],
      ['mcp-gen server manifest.yaml -o server --check --json', 'CI: is the output current? (machine-readable)'],
      ['mcp-gen server manifest.yaml -o server --spec ./errata/2025-11-25/schema.json', "the runtime's validators compiled from an updated schema"],
    ],
    async run(args, options, { io }) {
      const serverOptions = options as Options<import('./server-command.js').ServerOptions>;
      // Nothing changed since the last run: answered before the generator loads (noop-server.ts).
      const noop = (await import('./noop-server.js')).noopServer(args[0] as string, serverOptions, io);
      if ('code' in noop) return noop.code;
      const { runServer } = await import('./server-command.js');
      return runServer(args[0] as string, serverOptions, io, noop.request);
    },
  },
  {
    name: 'client',
    summary: 'Generate a typed, validating MCP client from a manifest, a live server, or a saved snapshot of one.',
    arguments: [{ name: '[manifest]', help: 'the server manifest (YAML or JSON), as for `mcp-gen server`' }],
    options: [
      { flags: '-o, --out <dir>', help: 'output folder', default: 'mcp-client' },
      { flags: '--from-url <url>', help: 'introspect a Streamable HTTP server (legacy HTTP+SSE as fallback)' },
      HEADER,
      FROM_COMMAND,
      ENV,
      { flags: '--from-snapshot <file>', help: 'generate from a snapshot saved with --save-snapshot (offline)' },
      { flags: '--save-snapshot <file>', help: 'write what was introspected to this file' },
      { flags: '--protocol-version <revision>', help: 'with --from-url/--from-command: a protocol revision to offer the server (default: every revision the client speaks, newest first)', repeatable: true },
      OUTSIDE_REFS,
      { flags: '--auth', help: 'include the OAuth sign-in (runtime/client/auth/, needs oauth4webapi) for protected servers' },
      { flags: '--package <name>', help: 'write a publishable npm package: src/ (the client), package.json, tsconfig.json (tsc to dist/), README.md' },
      { flags: '--package-version <semver>', help: "the package's version (default: kept from package.json, bumped when the server changed)" },
      { flags: '--browser', help: 'a client for web pages: HTTP on fetch, no stdio, no node:* import (no @types/node needed)' },
      { flags: '--view <uri>', help: "instead of a client, the typed bindings of this MCP Apps view (ui://…) for its page: view.ts, types, validators (docs/apps.md)" },
      IMPORT_EXTENSION,
      UPDATED_SPEC,
      SPEC_DIR,
      CHECK,
      { flags: '--watch', help: 'regenerate whenever the manifest (or its $ref files) or the --from-snapshot file changes, until Ctrl-C' },
      SHARED_CACHE,
      NO_VERSION_BANNER,
    ],
    examples: [
      ['mcp-gen client --from-url http://127.0.0.1:3000/mcp -o client', 'a typed client of a live server'],
      ["mcp-gen client --from-command 'node build/main.js' -o client", 'of a stdio server'],
      ['mcp-gen client manifest.yaml -o client', 'from the manifest the server is generated from'],
      ['mcp-gen client --from-url https://example.com/mcp --save-snapshot server.json', 'keep what was read, to regenerate offline'],
      ['mcp-gen client --from-url http://127.0.0.1:8080/mcp --protocol-version 2025-11-25 -o client', 'skip server/discover: offer only 2025-11-25'],
      ['mcp-gen client manifest.yaml -o weather-client --package weather-client', 'an npm package: npm pack, then npm install it in any app'],
      ['mcp-gen client manifest.yaml --view ui://weather/forecast -o src/view', "the typed bindings of a view's page (MCP Apps)"],
    ],
    async run(args, options, { io }) {
      const clientOptions = options as Options<import('./client-command.js').ClientCommandOptions>;
      const { runClient } = await import('./client-command.js');
      return runClient(args[0] as string | undefined, clientOptions, io);
    },
  },
  {
    name: 'import',
    summary: 'Write a manifest from an OpenAPI description (3.0, 3.1 or Swagger 2.0): one tool per operation, each bound to its HTTP request.',
    arguments: [
      { name: '<kind>', help: "what is imported: 'openapi'" },
      { name: '<source>', help: 'the description: a JSON or YAML file (its $refs may name other files) or an http(s) URL' },
    ],
    options: [
      { flags: '-o, --out <file>', help: 'the manifest to write (.yaml, or .json)', default: 'manifest.yaml' },
      { flags: '--tag <tag>', help: 'only operations with this tag (repeatable)', repeatable: true },
      { flags: '--path <glob>', help: "only operations whose path matches ('*' within a segment, '**' across; repeatable)", repeatable: true },
      { flags: '--operation <id>', help: 'only the operation with this operationId (repeatable)', repeatable: true },
      { flags: '--exclude-tag <tag>', help: 'leave out operations with this tag (repeatable)', repeatable: true },
      { flags: '--exclude-path <glob>', help: 'leave out operations whose path matches (repeatable)', repeatable: true },
      { flags: '--exclude-operation <id>', help: 'leave out the operation with this operationId (repeatable)', repeatable: true },
      { flags: '--base-url <url>', help: "the upstream's base URL (default: the description's first server)" },
      { flags: '--bearer-env <VAR>', help: 'send a bearer token from this environment variable with every operation the description gives no credentials' },
      { flags: '--header <header>', help: "a fixed header for every upstream request, 'Name: value' (repeatable; never a credential)", repeatable: true },
    ],
    examples: [
      ["mcp-gen import openapi api.github.com.json --tag repos --bearer-env GITHUB_TOKEN --header 'User-Agent: my-server' -o manifest.yaml", "GitHub's repos operations as tools"],
      ['mcp-gen import openapi https://example.com/openapi.yaml -o manifest.yaml', 'from a URL'],
      ["mcp-gen import openapi petstore.json --path '/pet/**' --exclude-operation deletePet", 'a few operations'],
    ],
    ownJson: true,
    async run(args, options, { io }) {
      const { runImport } = await import('./import-command.js');
      return runImport(args[0] as string, args[1] as string, options as Options<import('./import-command.js').ImportCommandOptions>, io);
    },
  },
  {
    name: 'diff',
    summary: 'Compare two servers (manifests, OpenAPI descriptions, snapshots, live servers) or two protocol revisions; classify each change as breaking, compatible or docs.',
    arguments: [
      { name: '<old>', help: "a manifest, an OpenAPI/Swagger description (compared as `mcp-gen import openapi` makes it), a snapshot, an http(s):// URL, 'cmd:<command line>', or a protocol schema: a revision (2025-11-25, draft, one in --spec-dir), a schema.json file or its folder, an http(s) URL ending in .json" },
      { name: '<new>', help: 'the same kind of side: server against server, schema against schema' },
    ],
    options: [
      { flags: '--json', help: 'print the findings as JSON' },
      { flags: '--fail-on <severity>', help: 'exit 1 when a finding is breaking, when there is any finding, or never', choices: ['breaking', 'any', 'none'], default: 'breaking' },
      { flags: '--header <header>', help: "an HTTP header for http(s) sides, 'Name: value' (repeatable)", repeatable: true },
      { flags: '--env <K=V>', help: 'an environment variable for cmd: sides (repeatable)', repeatable: true },
      SPEC_DIR,
      { flags: '--allow-outside-refs', help: "let $ref files outside a manifest's folder be read" },
    ],
    examples: [
      ['mcp-gen diff old/manifest.yaml manifest.yaml', 'what changed for callers, breaking first'],
      ['mcp-gen diff server.json http://127.0.0.1:3000/mcp --fail-on any', 'a snapshot against the live server'],
      ['mcp-gen diff ghes-3.18.json ghes-3.19.json', 'two releases of an API description: tool and HTTP binding changes'],
      ['mcp-gen diff 2025-11-25 2026-07-28 --json', 'two protocol revisions, as JSON'],
      ['mcp-gen diff draft ./pr-draft/schema.json', "a pull request's draft against the current one"],
    ],
    ownJson: true,
    async run(args, options, { io, rawIo, tty }) {
      const { runDiff } = await import('./diff-command.js');
      // Colour goes around the terminal sink (it would escape the codes); the renderer escapes input text itself.
      return runDiff(args[0] as string, args[1] as string, options as Options<import('./diff-command.js').DiffOptions>, io, { raw: rawIo, stdoutIsTty: tty.stdout && options['color'] !== false });
    },
  },
  {
    name: 'mock',
    summary: 'Serve a mock of a server: every tool answers values generated from its outputSchema (or a fixture), both protocol eras.',
    arguments: [{ name: '[manifest]', help: 'the server manifest (YAML or JSON), or a snapshot saved with `mcp-gen client --save-snapshot`' }],
    options: [
      { flags: '--from-url <url>', help: 'mock the server at this URL (introspected once at start-up)' },
      HEADER,
      { flags: '--http', help: 'serve Streamable HTTP instead of stdio' },
      { flags: '--port <port>', help: 'HTTP port (0: any free one)', default: '3000' },
      { flags: '--host <host>', help: 'HTTP host', default: '127.0.0.1' },
      { flags: '--seed <seed>', help: 'same seed, same answers', default: '0' },
      { flags: '--fixtures <file>', help: 'canned results and errors per tool, matched on the arguments (YAML or JSON)' },
      { flags: '--enforce-auth', help: 'with --http and a manifest `auth` section: require a development token (printed at start-up) instead of serving unprotected' },
      { flags: '--preview', help: 'also serve a page that hosts the MCP Apps views the way a host would, with sample tool input and results (implies --http)' },
      { flags: '--preview-port <port>', help: "the preview page's port (default: the mock's port + 1; 0: any free one)" },
      OUTSIDE_REFS,
    ],
    examples: [
      ['mcp-gen mock manifest.yaml', 'a stdio server answering every tool with valid generated outputs'],
      ['mcp-gen mock manifest.yaml --http --port 3001 --seed 7 --fixtures mock.yaml', 'over HTTP, with canned answers'],
      ['mcp-gen mock manifest.yaml --http --enforce-auth', "the manifest's auth enforced with a development token printed at start"],
      ['mcp-gen mock manifest.yaml --preview', 'the mock on port 3000 and a preview of its views on http://127.0.0.1:3001/'],
    ],
    ownJson: true,
    async run(args, options, { io }) {
      const { runMock } = await import('./mock-command.js');
      return runMock(args[0] as string | undefined, options as Options<import('./mock-command.js').MockCommandOptions>, io);
    },
  },
  {
    name: 'dev-issuer',
    summary: "Serve a local OAuth authorization server for trying a server's `auth` offline: JWKS, client_credentials, and a printed access token. Development only.",
    arguments: [],
    options: [
      { flags: '--port <port>', help: 'HTTP port (0: any free one)', default: '9400' },
      { flags: '--host <host>', help: 'HTTP host', default: '127.0.0.1' },
      { flags: '--resource <url>', help: "the printed token's audience: the MCP endpoint (also the default of token requests naming none)", default: 'http://127.0.0.1:3000/mcp' },
      { flags: '--scope <scopes>', help: "the printed token's scopes, space-separated (client_credentials requests ask for their own)" },
      { flags: '--subject <sub>', help: "the printed token's `sub`", default: 'dev-user' },
      { flags: '--expires-in <seconds>', help: 'lifetime of every token', default: '3600' },
    ],
    examples: [
      ['mcp-gen dev-issuer --scope weather:read', 'an issuer at http://127.0.0.1:9400 and a token for http://127.0.0.1:3000/mcp'],
      ['mcp-gen dev-issuer --port 9401 --resource http://127.0.0.1:3001/mcp --scope "weather:read weather:reports"', 'for a server on port 3001, two scopes; the server then runs with --auth http://127.0.0.1:9401'],
    ],
    ownJson: true,
    async run(_args, options, { io }) {
      const { runDevIssuer } = await import('./dev-issuer-command.js');
      return runDevIssuer(options as Options<import('./dev-issuer-command.js').DevIssuerCommandOptions>, io);
    },
  },
  {
    name: 'check',
    summary: 'Is every generated output current? Regenerates each in memory from its ledger (or a config file) and compares; writes nothing.',
    arguments: [{ name: '[paths...]', help: 'output folders or mcp-gen.config.json/.yaml files (default: the config here, else every ledger below)' }],
    options: [
      { flags: '--json', help: 'print the result as JSON' },
      { flags: '--live', help: 'regenerate clients made --from-url/--from-command from the live server, not the saved snapshot' },
    ],
    examples: [
      ['mcp-gen check', 'every output below here (or the config file) current?'],
      ['mcp-gen check server client --json', 'named folders, machine-readable'],
    ],
    ownJson: true,
    async run(args, options, { io }) {
      const { runCheck } = await import('./check-command.js');
      return runCheck(args[0] as string[], options as Options<import('./check-command.js').CheckOptions>, io);
    },
  },
  {
    name: 'docs',
    summary: 'Write a static HTML reference page (index.html) of a server: tools, prompts, resources and templates, with search and light/dark themes.',
    arguments: [{ name: '[manifest]', help: 'the server manifest (YAML or JSON)' }],
    options: [
      { flags: '-o, --out <dir>', help: 'output folder', default: 'mcp-docs' },
      { flags: '--from-url <url>', help: 'introspect a Streamable HTTP server' },
      HEADER,
      FROM_COMMAND,
      ENV,
      { flags: '--from-snapshot <file>', help: 'a snapshot saved with `mcp-gen client --save-snapshot` (offline)' },
      OUTSIDE_REFS,
      { flags: '--check', help: 'write nothing; exit 1 if index.html is stale or missing' },
      { flags: '--no-version-banner', help: 'leave the mcp-gen version out of the banner (stable output)' },
    ],
    examples: [
      ['mcp-gen docs manifest.yaml -o docs', 'docs/index.html, a page that works from file://'],
      ['mcp-gen docs --from-url http://127.0.0.1:3000/mcp -o docs', "a live server's reference"],
    ],
    async run(args, options, { io }) {
      const { runDocs } = await import('./docs-command.js');
      return runDocs(args[0] as string | undefined, options as Options<import('./docs-command.js').DocsCommandOptions>, io);
    },
  },
  {
    name: 'init',
    summary: 'Start a new project: a server (manifest with one example tool, generated server and client, a passing test) or, with --client, a client of a running server.',
    arguments: [{ name: '[dir]', help: 'the folder to create the project in (must be empty unless --force)', default: '.' }],
    options: [
      { flags: '--client', help: 'a client project, generated from the server at --url' },
      { flags: '--url <url>', help: 'the Streamable HTTP server a --client project calls' },
      { flags: '--name <name>', help: 'the package (and server) name (default: the folder name)' },
      { flags: '--force', help: 'scaffold into a folder that has files in it (existing files are kept, never replaced)' },
      { flags: '--mcp-gen <spec>', help: "how the project's package.json depends on mcp-gen (default: this mcp-gen)" },
      { flags: '--view', help: 'the example tool shows its results in an MCP Apps view (views/greeting.html; bindings in view/)' },
    ],
    examples: [
      ['mcp-gen init my-server && cd my-server && npm install && npm test', 'a server project that passes its own test'],
      ['mcp-gen init my-app --client --url http://127.0.0.1:3000/mcp', 'a client project of a running server'],
    ],
    async run(args, options, { io }) {
      const { runInit } = await import('./init-command.js');
      return runInit(args[0] as string, options as Options<import('./init-command.js').InitOptions>, io);
    },
  },
  {
    name: 'regenerate-self',
    summary: "Regenerate mcp-gen's own committed bindings (generated/) from $MCP_SPEC_DIR or the schemas in schema/mcp-spec.",
    arguments: [],
    options: [{ flags: '--examples', help: 'regenerate the git-ignored example and bench outputs instead' }, CHECK],
    examples: [],
    hidden: true,
    async run(_args, options, { io }) {
      const { runSelf } = await import('./self-command.js');
      return runSelf(options, io);
    },
  },
];
