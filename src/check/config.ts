import { readFile } from 'node:fs/promises';
import { dirname, posix, relative, resolve, sep } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { inputProblem } from '../load/diagnostics.js';
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

function toTarget(raw: Raw, base: string, where: string, file: string): Target {
  const str = (key: string): string | undefined => {
    const v = raw?.[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v === '') throw inputProblem(file, `${where}.${key} must be a non-empty string`);
    return v;
  };
  const out = str('out');
  if (out === undefined) throw inputProblem(file, `${where} has no "out"`);
  // As the command would print it when run from the config's folder.
  const shown = (p: string): string => {
    const rel = relative(base, resolve(base, p)).split(sep).join('/');
    return posix.normalize(rel === '' ? '.' : rel);
  };
  const banner = (command: string): Target['job']['banner'] => ({ command, version: raw['versionBanner'] !== false });
  const allow = raw['allowOutsideRefs'] === true ? { allowOutsideRefs: true } : {};
  const abs = (p: string): string => resolve(base, p);
  const flag = (key: string): boolean => {
    const v = raw[key];
    if (v !== undefined && typeof v !== 'boolean') throw inputProblem(file, `${where}.${key} must be true or false`);
    return v === true;
  };
  const oneOf = <T extends string>(key: string, values: readonly T[]): T | undefined => {
    const v = str(key);
    if (v !== undefined && !(values as readonly string[]).includes(v)) throw inputProblem(file, `${where}.${key} must be ${values.join(' or ')}`);
    return v as T | undefined;
  };
  // `--spec` as the command takes it: a revision name or URL as given, a path from the config's folder.
  const specJob = (): { spec?: string; specDir?: string } => {
    const spec = str('spec');
    const specDir = str('specDir');
    return {
      ...(spec !== undefined ? { spec: /^https?:\/\//i.test(spec) || isRevisionName(spec) ? spec : abs(spec) } : {}),
      ...(specDir !== undefined ? { specDir: abs(specDir) } : {}),
    };
  };
  const extension = (): { importExtension?: 'ts' } => (oneOf('importExtension', ['js', 'ts'] as const) === 'ts' ? { importExtension: 'ts' } : {});
  const command = raw?.['command'];
  if (raw?.['view'] !== undefined && command !== 'client') throw inputProblem(file, `${where}: "view" belongs to client targets (the bindings of \`mcp-gen client --view\`)`);
  const known = typeof command === 'string' && Object.hasOwn(KEYS, command) ? (KEYS[command] as readonly string[]) : undefined;
  const unknown = known === undefined ? undefined : Object.keys(raw).find((key) => !known.includes(key));
  if (unknown !== undefined) throw inputProblem(file, `${where}: a ${command as string} target has no "${unknown}"`, `known: ${known!.join(', ')}`);
  if (command === 'server') {
    const manifest = str('manifest');
    if (manifest === undefined) throw inputProblem(file, `${where}: a server target needs "manifest"`);
    const hosts = {
      ...(flag('mcpb') ? { mcpb: true } : {}),
      ...(str('registryName') !== undefined ? { registryName: str('registryName') as string } : {}),
      ...(str('registryRemote') !== undefined ? { registryRemote: str('registryRemote') as string } : {}),
      ...(flag('dockerfile') ? { dockerfile: true } : {}),
    };
    const job: ServerJob = {
      manifest: abs(manifest),
      out: abs(out),
      banner: banner(`mcp-gen server ${shown(manifest)}`),
      ...allow,
      ...extension(),
      ...(oneOf('target', ['node', 'web'] as const) === 'web' ? { target: 'web' as const } : {}),
      ...(flag('otel') ? { otel: true } : {}),
      ...(Object.keys(hosts).length > 0 ? { hosts } : {}),
      ...specJob(),
    };
    return { command, job };
  }
  if (command === 'client') {
    const sources = ['manifest', 'fromSnapshot', 'fromUrl', 'fromCommand'].filter((k) => raw[k] !== undefined);
    if (sources.length !== 1) throw inputProblem(file, `${where}: a client target needs exactly one of manifest, fromSnapshot, fromUrl, fromCommand`);
    const key = sources[0] as string;
    const value = str(key) as string;
    let source: ClientJob['source'];
    let text: string;
    if (key === 'manifest') [source, text] = [{ manifest: abs(value) }, `mcp-gen client ${shown(value)}`];
    else if (key === 'fromSnapshot') [source, text] = [{ fromSnapshot: abs(value) }, `mcp-gen client --from-snapshot ${shown(value)}`];
    else if (key === 'fromUrl') [source, text] = [{ fromUrl: value }, `mcp-gen client --from-url ${value}`];
    else [source, text] = [{ fromCommand: value }, `mcp-gen client --from-command ${value}`];
    // `view`: the target is a view's bindings (`mcp-gen client … --view <uri>`), as its banner says.
    const view = str('view');
    if (view !== undefined) text += ` --view ${view}`;
    const versions = raw['protocolVersions'];
    if (versions !== undefined) {
      if (!Array.isArray(versions) || versions.length === 0 || !versions.every((v) => typeof v === 'string' && v !== ''))
        throw inputProblem(file, `${where}.protocolVersions must be a list of revisions, e.g. ["2025-11-25"]`);
      if (!('fromUrl' in source) && !('fromCommand' in source)) throw inputProblem(file, `${where}: "protocolVersions" needs fromUrl or fromCommand`);
      source.protocolVersions = versions as string[];
    }
    const pkg = str('package');
    const job: ClientJob = {
      out: abs(out),
      source,
      banner: banner(text),
      ...allow,
      ...extension(),
      ...(flag('auth') ? { auth: true } : {}),
      ...(flag('browser') ? { browser: true } : {}),
      ...(pkg !== undefined ? { package: { name: pkg } } : {}),
      ...(view !== undefined ? { view } : {}),
      ...specJob(),
    };
    return { command, job };
  }
  if (command === 'types') {
    const spec = str('spec');
    if (spec === undefined) throw inputProblem(file, `${where}: a types target needs "spec"`);
    const docs = (str('docs') ?? 'full') as TypesJob['docs'];
    if (!['full', 'link', 'none'].includes(docs)) throw inputProblem(file, `${where}.docs must be full, link or none`);
    const revision = str('revision');
    const specDir = str('specDir');
    const named = /^https?:\/\//i.test(spec) || isRevisionName(spec);
    // The banner names the revision the schema holds; a path's revision is its folder's name or `revision`.
    const shownRevision = revision ?? (named && !/^https?:/i.test(spec) ? spec : spec.split(/[/\\]/).reverse().find((s) => /^\d{4}-\d{2}-\d{2}$|^draft$/.test(s)) ?? spec);
    return {
      command,
      job: {
        spec: named ? spec : abs(spec),
        out: abs(out),
        docs,
        banner: banner(`mcp-gen types --spec ${shownRevision} --docs ${docs}`),
        ...(revision !== undefined ? { revision } : {}),
        ...(specDir !== undefined ? { specDir: abs(specDir) } : {}),
      },
    };
  }
  throw inputProblem(file, `${where}.command must be server, client or types`);
}
