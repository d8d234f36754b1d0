/**
 * The project a client is generated into, looked at once after a run that writes: the settings
 * around the output folder that the copied client cannot work under, each with the one command
 * that fixes it. Only reads the disk; what the client's files hold never depends on it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fixCommand } from '../check/fix-command.js';
import type { ClientJob } from './client.js';
import { displayPath } from './paths.js';

/** The nearest project file above the output folder: Node's package.json, or Deno's deno.json. */
type Project = { kind: 'node'; dir: string; manifest: { [key: string]: unknown } } | { kind: 'deno'; file: string } | undefined;

function nearestProject(out: string): Project {
  for (let dir = resolve(out); ; dir = dirname(dir)) {
    const packageJson = join(dir, 'package.json');
    if (existsSync(packageJson)) return { kind: 'node', dir, manifest: readJson(packageJson) };
    const deno = ['deno.json', 'deno.jsonc'].map((name) => join(dir, name)).find((file) => existsSync(file));
    if (deno !== undefined) return { kind: 'deno', file: deno };
    if (dirname(dir) === dir) return undefined;
  }
}

function readJson(file: string): { [key: string]: unknown } {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { [key: string]: unknown }) : {};
  } catch {
    return {};
  }
}

/** Node's types, installed in a node_modules at or above the folder, or named in the project's dependencies. */
function hasNodeTypes(out: string, manifest: { [key: string]: unknown }): boolean {
  for (const field of ['dependencies', 'devDependencies']) {
    const deps = manifest[field];
    if (typeof deps === 'object' && deps !== null && Object.hasOwn(deps, '@types/node')) return true;
  }
  return hasFileAbove(out, join('node_modules', '@types', 'node', 'package.json'));
}

/** `relative` exists in the folder or one of its ancestors. */
function hasFileAbove(folder: string, relative: string): boolean {
  for (let dir = resolve(folder); ; dir = dirname(dir)) {
    if (existsSync(join(dir, relative))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/**
 * The tsconfig.json tsc would use for the output folder, when it compiles under node16/nodenext
 * with verbatimModuleSyntax: there a .ts file in a CommonJS package may not use `import`/`export`
 * (TS1295), and every client module does. Read by TypeScript itself (comments, `extends`).
 */
async function verbatimNodeConfig(out: string): Promise<string | undefined> {
  // TypeScript takes a while to load: not for a project that has no tsconfig.json at all.
  if (!hasFileAbove(out, 'tsconfig.json')) return undefined;
  const { ts } = await import('ts-morph');
  const file = ts.findConfigFile(resolve(out), ts.sys.fileExists);
  if (file === undefined) return undefined;
  const read = ts.readConfigFile(file, ts.sys.readFile);
  if (read.error !== undefined) return undefined;
  const options = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(file)).options;
  const module = options.module ?? ts.ModuleKind.CommonJS;
  const nodeModule = module >= ts.ModuleKind.Node16 && module <= ts.ModuleKind.NodeNext;
  return nodeModule && options.verbatimModuleSyntax === true ? file : undefined;
}

/** `run \`command\``, in the project's folder when that is not the working directory. */
function runIn(dir: string, command: string): string {
  return resolve(dir) === process.cwd() ? `run \`${command}\`` : `run \`${command}\` in ${displayPath(dir)}`;
}

/**
 * One line per setting of the surrounding project that keeps the client from compiling or running
 * there, naming the command that fixes it. A `--package` client brings its own package.json and
 * tsconfig.json, so it is not looked at; nor are a view's bindings (`--view`), which import nothing
 * and are bundled into a page.
 */
export async function clientProjectAdvice(job: ClientJob): Promise<string[]> {
  if (job.package !== undefined || job.view !== undefined) return [];
  const project = nearestProject(job.out);
  if (project === undefined) return [];
  const out = displayPath(job.out);
  if (project.kind === 'deno') {
    // Deno resolves `./x.js` to nothing when only x.ts is there.
    if (job.importExtension === 'ts') return [];
    const fix = fixCommand({ command: 'client', job: { ...job, importExtension: 'ts' } });
    return [`note: ${displayPath(project.file)} makes ${out} part of a Deno project, whose imports must name the .ts files: run \`${fix}\``];
  }
  const advice: string[] = [];
  const type = project.manifest['type'];
  if (type !== 'module') {
    const config = await verbatimNodeConfig(job.out);
    const said = type === undefined ? 'has no "type" (CommonJS)' : `has "type": ${JSON.stringify(type)}`;
    if (config !== undefined) {
      advice.push(`note: ${displayPath(join(project.dir, 'package.json'))} ${said} and ${displayPath(config)} sets verbatimModuleSyntax, so tsc refuses the ESM client in ${out} (TS1295): ${runIn(project.dir, 'npm pkg set type=module')}`);
    }
  }
  if (job.browser !== true && !hasNodeTypes(job.out, project.manifest)) {
    advice.push(`note: the client in ${out} imports node:* modules, whose types are not installed here (TS2688, TS2307): ${runIn(project.dir, 'npm install --save-dev @types/node')}`);
  }
  return advice;
}
