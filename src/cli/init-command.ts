/**
 * `mcp-gen init [dir]`: a new project that installs, builds and passes its own test with no edits.
 * It writes the scaffold (src/init/scaffold.ts), then runs the same generate commands its
 * package.json runs later, so the first generation and every later one agree.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { mcpGenDependency } from '../init/mcp-gen-dependency.js';
import { generateCommands, scaffoldFiles, splitWords, type ScaffoldOptions } from '../init/scaffold.js';
import { EXIT_INPUT, EXIT_OK, type Console } from './output.js';
import { displayPath, PACKAGE_ROOT, toolVersion } from '../pipeline/paths.js';

export interface InitOptions {
  client?: boolean;
  url?: string;
  name?: string;
  force?: boolean;
  /** How the project's package.json asks for mcp-gen (default: this mcp-gen). */
  mcpGen?: string;
  /** A server whose tool shows its results in an MCP Apps view. */
  view?: boolean;
}

export async function runInit(dir: string | undefined, options: InitOptions, io: Console): Promise<number> {
  const target = resolve(dir ?? '.');
  const problem = optionProblem(target, options);
  if (problem !== undefined) {
    io.err(`error: ${problem}`);
    return EXIT_INPUT;
  }
  const scaffold: ScaffoldOptions = {
    kind: options.client === true ? 'client' : 'server',
    name: options.name ?? basename(target),
    mcpGenSpec: options.mcpGen ?? mcpGenDependency(PACKAGE_ROOT, toolVersion()),
    ...(options.url !== undefined ? { url: options.url } : {}),
    ...(options.view === true ? { view: true } : {}),
  };
  const createdFolder = !existsSync(target);
  const written: string[] = [];
  const kept: string[] = [];
  for (const file of scaffoldFiles(join(PACKAGE_ROOT, 'templates'), scaffold)) {
    const path = join(target, file.path);
    // --force lets init into a folder with files in it; it still never replaces one.
    if (existsSync(path)) {
      kept.push(file.path);
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
    written.push(file.path);
  }
  for (const command of generateCommands(scaffold)) {
    const code = runMcpGen(command, target, io);
    if (code !== EXIT_OK) {
      // Leave nothing half-made behind: undo what this run wrote (all of it, if it made the folder).
      if (createdFolder) rmSync(target, { recursive: true, force: true });
      else for (const path of written) rmSync(join(target, path), { force: true });
      io.err(`error: \`${command}\` failed; init wrote nothing.`);
      return code;
    }
  }
  for (const path of kept) io.err(`kept ${path} (it exists; init never replaces a file)`);
  const where = displayPath(target);
  io.result?.({ dir: where, kind: scaffold.kind, written, kept });
  io.out(`created a ${scaffold.kind} project in ${where}`);
  io.out('next:');
  if (where !== '.') io.out(`  cd ${where}`);
  io.out('  npm install');
  io.out(scaffold.kind === 'server' ? '  npm test          # builds, then calls the greet tool through the generated client' : '  npm test          # needs the server running at the URL');
  io.out('  npm run dev       # regenerate and rebuild on every change');
  return EXIT_OK;
}

function optionProblem(target: string, options: InitOptions): string | undefined {
  if (options.client === true && options.url === undefined) return '--client needs --url <url> (the server to generate the client from)';
  if (options.client !== true && options.url !== undefined) return '--url goes with --client';
  if (options.client === true && options.view === true) return '--view makes a server project: leave out --client';
  if (options.url !== undefined && !/^https?:\/\//i.test(options.url)) return `--url must be an http(s) URL, got ${JSON.stringify(options.url)}`;
  if (!existsSync(target)) return undefined;
  if (!statSync(target).isDirectory()) return `${displayPath(target)} exists and is not a folder`;
  if (options.force !== true && readdirSync(target).length > 0) {
    return `${displayPath(target)} is not empty; choose an empty folder, or pass --force to add the project beside what is there (no file is replaced)`;
  }
  return undefined;
}

/** Runs `mcp-gen …` (a generate command of the project) with this mcp-gen, in the project folder. */
function runMcpGen(command: string, cwd: string, io: Console): number {
  const args = splitWords(command).slice(1);
  const result = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'bin', 'mcp-gen.js'), ...args], { cwd, encoding: 'utf8' });
  for (const line of result.stderr.split('\n')) if (line !== '') io.err(line);
  if (result.error !== undefined) {
    io.err(`error: could not run mcp-gen: ${result.error.message}`);
    return EXIT_INPUT;
  }
  return result.status ?? EXIT_INPUT;
}
