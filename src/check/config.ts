import { readFile } from 'node:fs/promises';
import { dirname, posix, relative, resolve, sep } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { inputProblem } from '../load/diagnostics.js';
import { isRevisionName } from '../load/spec.js';
import type { ClientJob } from '../pipeline/client.js';
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
 * Optional per target: `allowOutsideRefs` (server, client), `versionBanner: false`, for a client
 * `view` (a `ui://` URI: the target is that view's bindings, `mcp-gen client --view`), and for types
 * `docs` (default full), `revision`, `specDir`.
 */
export const CONFIG_FILES = ['mcp-gen.config.json', 'mcp-gen.config.yaml', 'mcp-gen.config.yml'];

type Raw = Record<string, unknown>;

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
  const command = raw?.['command'];
  if (raw?.['view'] !== undefined && command !== 'client') throw inputProblem(file, `${where}: "view" belongs to client targets (the bindings of \`mcp-gen client --view\`)`);
  if (command === 'server') {
    const manifest = str('manifest');
    if (manifest === undefined) throw inputProblem(file, `${where}: a server target needs "manifest"`);
    return { command, job: { manifest: abs(manifest), out: abs(out), banner: banner(`mcp-gen server ${shown(manifest)}`), ...allow } };
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
    return { command, job: { out: abs(out), source, banner: banner(text), ...allow, ...(view !== undefined ? { view } : {}) } };
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
