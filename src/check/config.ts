import { readFile } from 'node:fs/promises';
import { dirname, posix, relative, resolve, sep } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { inputProblem, type InputError } from '../load/diagnostics.js';
import { isRevisionName } from '../load/spec.js';
import type { ClientJob } from '../pipeline/client.js';
import type { ServerJob } from '../pipeline/server.js';
import type { TypesJob } from '../pipeline/types.js';
import type { Target } from './target.js';

/**
 * `mcp-gen.config.json` (or `.yaml`): the outputs of a repository in one list, so `mcp-gen check`
 * knows them without ledgers. Paths are relative to the config file's folder, and each target is
 * checked as if its command were run there (so the banners it expects name the same paths).
 *
 *   { "targets": [ { "command": "server", "manifest": "api/manifest.yaml", "out": "api/server" },
 *                  { "command": "client", "fromSnapshot": "api/snapshot.json", "out": "app/client" },
 *                  { "command": "types", "spec": "2025-11-25", "out": "protocol", "docs": "link" } ] }
 *
 * Optional per target, each the flag of the same name: for a server `spec`, `specDir`,
 * `importExtension`, `target`, `otel`, `mcpb`, `registryName`, `registryRemote`, `dockerfile`; for a
 * client `spec`, `specDir`, `importExtension`, `auth`, `browser`, `package`, `protocolVersions` (a
 * list) and `view` (a `ui://` URI: the target is that view's bindings, `mcp-gen client --view`);
 * for types `docs` (default full), `revision`, `specDir`. Both: `allowOutsideRefs`, and
 * `versionBanner: false` for all three. A key not listed is refused: a flag the check left out
 * would report drift that is not there.
 */
export const CONFIG_FILES = ['mcp-gen.config.json', 'mcp-gen.config.yaml', 'mcp-gen.config.yml'];

type Raw = Record<string, unknown>;

const COMMON_KEYS = ['command', 'out', 'versionBanner'];
const KEYS: Record<string, readonly string[]> = {
  server: [...COMMON_KEYS, 'manifest', 'allowOutsideRefs', 'spec', 'specDir', 'importExtension', 'target', 'otel', 'mcpb', 'registryName', 'registryRemote', 'dockerfile'],
  client: [...COMMON_KEYS, 'manifest', 'fromSnapshot', 'fromUrl', 'fromCommand', 'allowOutsideRefs', 'spec', 'specDir', 'importExtension', 'auth', 'browser', 'package', 'protocolVersions', 'view'],
  types: [...COMMON_KEYS, 'spec', 'docs', 'revision', 'specDir'],
};

export async function readConfig(file: string): Promise<Target[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw inputProblem(file, `cannot read config: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let value: unknown;
  try {
    value = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw inputProblem(file, `not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message}`);
  }
  const targets = (value as Raw | null)?.['targets'];
  if (!Array.isArray(targets) || targets.length === 0) {
    throw inputProblem(file, 'a config lists its outputs under "targets"', 'e.g. { "targets": [{ "command": "server", "manifest": "manifest.yaml", "out": "server" }] }');
  }
  const base = dirname(resolve(file));
  return targets.map((raw, index) => toTarget(raw as Raw, base, `${file}: targets[${index}]`, file));
}

/** One target's fields, read with the errors that name the config, the target and the key. */
class Fields {
  constructor(
    readonly raw: Raw,
    private readonly base: string,
    readonly where: string,
    readonly file: string,
  ) {}

  problem(message: string, hint?: string): InputError {
    return inputProblem(this.file, message, hint);
  }

  str(key: string): string | undefined {
    const v = this.raw[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v === '') throw this.problem(`${this.where}.${key} must be a non-empty string`);
    return v;
  }

  flag(key: string): boolean {
    const v = this.raw[key];
    if (v !== undefined && typeof v !== 'boolean') throw this.problem(`${this.where}.${key} must be true or false`);
    return v === true;
  }

  oneOf<T extends string>(key: string, values: readonly T[]): T | undefined {
    const v = this.str(key);
    if (v !== undefined && !(values as readonly string[]).includes(v)) throw this.problem(`${this.where}.${key} must be ${values.join(' or ')}`);
    return v as T | undefined;
  }

  abs(p: string): string {
    return resolve(this.base, p);
  }

  /** As the command would print it when run from the config's folder. */
  shown(p: string): string {
    const rel = relative(this.base, resolve(this.base, p)).split(sep).join('/');
    return posix.normalize(rel === '' ? '.' : rel);
  }

  banner(command: string): Target['job']['banner'] {
    return { command, version: this.raw['versionBanner'] !== false };
  }

  /** What server and client targets share: out, allowOutsideRefs, importExtension, spec and specDir. */
  common(out: string): { out: string; allowOutsideRefs?: true; importExtension?: 'ts'; spec?: string; specDir?: string } {
    const spec = this.str('spec');
    const specDir = this.str('specDir');
    return {
      out: this.abs(out),
      ...(this.raw['allowOutsideRefs'] === true ? { allowOutsideRefs: true } : {}),
      ...(this.oneOf('importExtension', ['js', 'ts'] as const) === 'ts' ? { importExtension: 'ts' } : {}),
      // `--spec` as the command takes it: a revision name or URL as given, a path from the config's folder.
      ...(spec !== undefined ? { spec: /^https?:\/\//i.test(spec) || isRevisionName(spec) ? spec : this.abs(spec) } : {}),
      ...(specDir !== undefined ? { specDir: this.abs(specDir) } : {}),
    };
  }
}

function toTarget(raw: Raw, base: string, where: string, file: string): Target {
  const fields = new Fields(raw ?? {}, base, where, file);
  const out = fields.str('out');
  if (out === undefined) throw fields.problem(`${where} has no "out"`);
  const command = raw?.['command'];
  if (raw?.['view'] !== undefined && command !== 'client') throw fields.problem(`${where}: "view" belongs to client targets (the bindings of \`mcp-gen client --view\`)`);
  const known = typeof command === 'string' && Object.hasOwn(KEYS, command) ? (KEYS[command] as readonly string[]) : undefined;
  const unknown = known === undefined ? undefined : Object.keys(raw).find((key) => !known.includes(key));
  if (unknown !== undefined) throw fields.problem(`${where}: a ${command as string} target has no "${unknown}"`, `known: ${known!.join(', ')}`);
  if (command === 'server') return { command, job: serverJob(fields, out) };
  if (command === 'client') return { command, job: clientJob(fields, out) };
  if (command === 'types') return { command, job: typesJob(fields, out) };
  throw fields.problem(`${where}.command must be server, client or types`);
}

function serverJob(f: Fields, out: string): ServerJob {
  const manifest = f.str('manifest');
  if (manifest === undefined) throw f.problem(`${f.where}: a server target needs "manifest"`);
  const registryName = f.str('registryName');
  const registryRemote = f.str('registryRemote');
  const hosts = {
    ...(f.flag('mcpb') ? { mcpb: true } : {}),
    ...(registryName !== undefined ? { registryName } : {}),
    ...(registryRemote !== undefined ? { registryRemote } : {}),
    ...(f.flag('dockerfile') ? { dockerfile: true } : {}),
  };
  return {
    manifest: f.abs(manifest),
    banner: f.banner(`mcp-gen server ${f.shown(manifest)}`),
    ...f.common(out),
    ...(f.oneOf('target', ['node', 'web'] as const) === 'web' ? { target: 'web' as const } : {}),
    ...(f.flag('otel') ? { otel: true } : {}),
    ...(Object.keys(hosts).length > 0 ? { hosts } : {}),
  };
}

function clientJob(f: Fields, out: string): ClientJob {
  const sources = ['manifest', 'fromSnapshot', 'fromUrl', 'fromCommand'].filter((k) => f.raw[k] !== undefined);
  if (sources.length !== 1) throw f.problem(`${f.where}: a client target needs exactly one of manifest, fromSnapshot, fromUrl, fromCommand`);
  const key = sources[0] as string;
  const value = f.str(key) as string;
  let source: ClientJob['source'];
  let text: string;
  if (key === 'manifest') [source, text] = [{ manifest: f.abs(value) }, `mcp-gen client ${f.shown(value)}`];
  else if (key === 'fromSnapshot') [source, text] = [{ fromSnapshot: f.abs(value) }, `mcp-gen client --from-snapshot ${f.shown(value)}`];
  else if (key === 'fromUrl') [source, text] = [{ fromUrl: value }, `mcp-gen client --from-url ${value}`];
  else [source, text] = [{ fromCommand: value }, `mcp-gen client --from-command ${value}`];
  // `view`: the target is a view's bindings (`mcp-gen client … --view <uri>`), as its banner says.
  const view = f.str('view');
  if (view !== undefined) text += ` --view ${view}`;
  const versions = f.raw['protocolVersions'];
  if (versions !== undefined) {
    if (!Array.isArray(versions) || versions.length === 0 || !versions.every((v) => typeof v === 'string' && v !== ''))
      throw f.problem(`${f.where}.protocolVersions must be a list of revisions, e.g. ["2025-11-25"]`);
    if (!('fromUrl' in source) && !('fromCommand' in source)) throw f.problem(`${f.where}: "protocolVersions" needs fromUrl or fromCommand`);
    source.protocolVersions = versions as string[];
  }
  const pkg = f.str('package');
  return {
    source,
    banner: f.banner(text),
    ...f.common(out),
    ...(f.flag('auth') ? { auth: true } : {}),
    ...(f.flag('browser') ? { browser: true } : {}),
    ...(pkg !== undefined ? { package: { name: pkg } } : {}),
    ...(view !== undefined ? { view } : {}),
  };
}

function typesJob(f: Fields, out: string): TypesJob {
  const spec = f.str('spec');
  if (spec === undefined) throw f.problem(`${f.where}: a types target needs "spec"`);
  const docs = (f.str('docs') ?? 'full') as TypesJob['docs'];
  if (!['full', 'link', 'none'].includes(docs)) throw f.problem(`${f.where}.docs must be full, link or none`);
  const revision = f.str('revision');
  const specDir = f.str('specDir');
  const named = /^https?:\/\//i.test(spec) || isRevisionName(spec);
  // The banner names the revision the schema holds; a path's revision is its folder's name or `revision`.
  const shownRevision = revision ?? (named && !/^https?:/i.test(spec) ? spec : spec.split(/[/\\]/).reverse().find((s) => /^\d{4}-\d{2}-\d{2}$|^draft$/.test(s)) ?? spec);
  return {
    spec: named ? spec : f.abs(spec),
    out: f.abs(out),
    docs,
    banner: f.banner(`mcp-gen types --spec ${shownRevision} --docs ${docs}`),
    ...(revision !== undefined ? { revision } : {}),
    ...(specDir !== undefined ? { specDir: f.abs(specDir) } : {}),
  };
}
