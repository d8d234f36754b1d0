/**
 * What `mcp-gen init` writes before it generates anything: a manifest with one example tool, its
 * handler, a test calling it through the generated client, and the package.json whose scripts
 * drive mcp-gen from then on. The texts live in `templates/init/` as the files they become.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_DEPENDENCIES, PROJECT_TSCONFIG, packageName } from '../emit/server/project-files.js';
import { VALIDATOR_IMPORTS } from '../emit/validators/module-layout.js';

export type ProjectKind = 'server' | 'client';

export interface ScaffoldOptions {
  kind: ProjectKind;
  /** The package and server name (any text: it is made npm-safe). */
  name: string;
  /** How package.json asks for mcp-gen: a version range, or `file:` for a checkout. */
  mcpGenSpec: string;
  /** The server a client project is generated from (client projects only). */
  url?: string;
  /** `--view`: the greet tool shows its results in an MCP Apps view (server projects only). */
  view?: boolean;
}

/** A file of the new project, relative to its folder. */
export interface ScaffoldFile {
  path: string;
  content: string;
}

/** The command lines the project's scripts (and init itself) run to generate code. */
export function generateCommands(options: ScaffoldOptions): string[] {
  if (options.kind === 'server') {
    const view = options.view === true ? [`mcp-gen client manifest.yaml --view ${viewUri(options)} -o view`] : [];
    return ['mcp-gen server manifest.yaml -o .', 'mcp-gen client manifest.yaml -o client', ...view];
  }
  return [`mcp-gen client --from-url ${shellWord(options.url ?? '')} -o client --save-snapshot server.snapshot.json`];
}

export function scaffoldFiles(templatesDir: string, options: ScaffoldOptions): ScaffoldFile[] {
  const read = (path: string, kind: string = options.kind): string => readFileSync(join(templatesDir, 'init', kind, path), 'utf8');
  // A live server sends no change events (`--from-url` cannot watch): a client project regenerates
  // with `npm run generate`, and dev only recompiles.
  const regenerate = options.kind === 'server' ? generateCommands(options) : [];
  const watchers = [
    ...regenerate.map((command) => ['mcp-gen/bin/mcp-gen.js', ...splitWords(command).slice(1), '--watch']),
    ['typescript/bin/tsc', '-b', '--watch', '--preserveWatchOutput'],
  ];
  const dev = { path: 'dev.mjs', content: read('dev.mjs', 'common').replace('__WATCHERS__', JSON.stringify(watchers)) };
  const name = packageName(options.name);
  if (options.kind === 'server') {
    const manifest = read('manifest.yaml').replace('__NAME__', JSON.stringify(name));
    return [
      // With --view the tool links to the page, and its handler returns text for the model too.
      { path: 'manifest.yaml', content: options.view === true ? withView(manifest, read('manifest-views.yaml', 'view'), options) : manifest },
      { path: 'handlers/tools/greet.ts', content: options.view === true ? read('handlers/tools/greet.ts', 'view') : read('handlers/tools/greet.ts') },
      ...(options.view === true ? [{ path: 'views/greeting.html', content: read('views/greeting.html', 'view') }] : []),
      { path: 'test/greet.test.ts', content: read('test/greet.test.ts') },
      { path: 'package.json', content: packageJson(name, options) },
      { path: 'tsconfig.json', content: tsconfig() },
      dev,
    ];
  }
  // The URL lands in TypeScript as a string literal: JSON.stringify quotes and escapes it.
  const url = JSON.stringify(options.url ?? '');
  return [
    { path: 'main.ts', content: read('main.ts').replace('__URL__', url) },
    { path: 'test/server.test.ts', content: read('test/server.test.ts').replace('__URL__', url) },
    { path: 'package.json', content: packageJson(name, options) },
    { path: 'tsconfig.json', content: tsconfig() },
    { path: '.gitignore', content: 'build/\nnode_modules/\n' },
    dev,
  ];
}

/** The view's URI: the package name makes a valid ui:// authority. */
function viewUri(options: ScaffoldOptions): string {
  return `ui://${packageName(options.name).replace(/^@/, '').replace('/', '-')}/greeting`;
}

/** The manifest with the `views` section and the greet tool linked to it. */
function withView(manifest: string, views: string, options: ScaffoldOptions): string {
  const linked = manifest.replace('    description: Greets someone by name.\n', `    description: Greets someone by name.\n    view: ${viewUri(options)}\n`);
  return `${linked}${views.replace('ui://__NAME__/greeting', viewUri(options))}`;
}

/** A generated server's tsconfig: the client under client/ is TypeScript too. */
function tsconfig(): string {
  return `${JSON.stringify(PROJECT_TSCONFIG, null, 2)}\n`;
}

function packageJson(name: string, options: ScaffoldOptions): string {
  const generate = generateCommands(options);
  const scripts: Record<string, string> = {
    generate: generate.join(' && '),
    check: 'mcp-gen check',
    // The generators and tsc each watch their own inputs; dev.mjs starts and stops them together.
    dev: 'node dev.mjs',
    build: 'tsc -b',
    start: 'tsc -b && node build/main.js',
    // A glob the shell expands: `node --test <folder>` means different things in Node 20 and 22.
    test: `tsc -b && node --test build/test/*.test.js`,
  };
  if (options.kind === 'server') scripts['start:http'] = 'tsc -b && node build/main.js --http';
  const json = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts,
    // A server project builds itself: its tools' validators are JavaScript tsc does not rebuild.
    ...(options.kind === 'server' ? { imports: { [VALIDATOR_IMPORTS.key]: VALIDATOR_IMPORTS.target } } : {}),
    engines: { node: '>=20' },
    devDependencies: { ...BUILD_DEPENDENCIES, 'mcp-gen': options.mcpGenSpec },
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** The words of a command line made by generateCommands: plain words and single-quoted ones. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  const pattern = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (let match = pattern.exec(line); match !== null; match = pattern.exec(line)) {
    words.push(match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : (match[2] as string));
  }
  return words;
}

/** A word for a POSIX shell: single-quoted unless it is plainly safe. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
