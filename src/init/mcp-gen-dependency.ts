/**
 * The `mcp-gen` line of a project `mcp-gen init` makes. Until mcp-gen is on the npm registry a
 * `^version` range would fail to install, so the new project asks for mcp-gen the way the running
 * one was installed: a checkout by its folder, an installed package by the spec its own project
 * used (a tarball's `file:` path made absolute, anything else as written).
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';

const FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies'] as const;

/** How package.json should depend on the mcp-gen whose package folder is `packageRoot`. */
export function mcpGenDependency(packageRoot: string, version: string): string {
  const parts = packageRoot.split(sep);
  const at = parts.lastIndexOf('node_modules');
  // Not installed by npm: a clone of the repository, which npm installs as a folder.
  if (at < 0) return `file:${packageRoot}`;
  const project = parts.slice(0, at).join(sep) || sep;
  const spec = specIn(join(project, 'package.json'));
  if (spec === undefined) return `^${version}`;
  if (!spec.startsWith('file:')) return spec;
  // npm reads a `file:` path from the folder of its package.json; the new project is elsewhere.
  const path = spec.slice('file:'.length);
  return `file:${isAbsolute(path) ? path : resolve(project, path)}`;
}

/** The spec a package.json gives mcp-gen, if it names it. */
function specIn(packageJson: string): string | undefined {
  let json: Partial<Record<(typeof FIELDS)[number], Record<string, unknown>>>;
  try {
    json = JSON.parse(readFileSync(packageJson, 'utf8')) as typeof json;
  } catch {
    return undefined;
  }
  for (const field of FIELDS) {
    const spec = json[field]?.['mcp-gen'];
    if (typeof spec === 'string' && spec !== '') return spec;
  }
  return undefined;
}
