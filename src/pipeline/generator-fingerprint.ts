import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT, toolVersion } from './paths.js';

/**
 * What the unit cache's entries are valid for: mcp-gen's version, the code of the generator itself
 * (every module of the folder this module was loaded from, `dist/` or `src/`, and the precompiled
 * validators of `schema/`) and the versions of the libraries whose output lands in generated files. A rebuilt mcp-gen with the same version
 * number still gets a different fingerprint, so a cache never outlives the code that filled it.
 *
 * A module stands in by its status, not its bytes (reading every module would be a visible share of
 * a warm run): its size, inode and change time in nanoseconds. Writing a file, or putting another in its place,
 * always sets a new change time (no tool can set it back), so a rebuild or a reinstall is seen
 * even when the size stays. The price is a cold run after a reinstall of identical code.
 */

const LIBRARIES = ['ajv', 'ajv-formats', 'json-schema-to-typescript', 'prettier'];

let cached: string | undefined;

export function generatorFingerprint(): string {
  cached ??= codeFingerprint(dirname(dirname(fileURLToPath(import.meta.url))));
  return cached;
}

/** The fingerprint of the generator whose modules are under `codeRoot`, its precompiled validators in `schemaDir`. */
export function codeFingerprint(codeRoot: string, schemaDir = join(PACKAGE_ROOT, 'schema')): string {
  const hash = createHash('sha256').update(`mcp-gen ${toolVersion()}\0`);
  // The validators beside the code (schema/*.cjs and what they read) judge manifests and tool schemas too.
  const schemaFiles = readdirSync(schemaDir, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
  const files = [...filesUnder(codeRoot).map((file) => ['code', codeRoot, file]), ...schemaFiles.map((name) => ['schema', schemaDir, join(schemaDir, name)])];
  for (const [part, root, file] of files as [string, string, string][]) {
    const status = statSync(file, { bigint: true });
    hash.update(`${part}/${relative(root, file).split(sep).join('/')}\0${status.size}\0${status.ino}\0${status.ctimeNs}\0`);
  }
  for (const library of LIBRARIES) {
    let version = 'absent';
    try {
      version = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'node_modules', library, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      // Resolved elsewhere (a hoisted install): the version of mcp-gen still pins it.
    }
    hash.update(`${library}@${version}\0`);
  }
  return hash.digest('hex');
}

/** The modules that run: declarations and source maps change nothing the generator does. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(?:[cm]?js|ts|json)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
