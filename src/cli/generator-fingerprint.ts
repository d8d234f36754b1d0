import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT, toolVersion } from './paths.js';

/**
 * What the unit cache's entries are valid for: mcp-gen's version, the code of the generator itself
 * (every file of the folder this module was loaded from, `dist/` or `src/`) and the versions of
 * the libraries whose output lands in generated files. A rebuilt mcp-gen with the same version
 * number still gets a different fingerprint, so a cache never outlives the code that filled it.
 */

const LIBRARIES = ['ajv', 'ajv-formats', 'json-schema-to-typescript', 'prettier'];

let cached: string | undefined;

export function generatorFingerprint(): string {
  if (cached !== undefined) return cached;
  const hash = createHash('sha256').update(`mcp-gen ${toolVersion()}\0`);
  const codeRoot = dirname(dirname(fileURLToPath(import.meta.url)));
  for (const file of filesUnder(codeRoot)) {
    hash.update(`${relative(codeRoot, file).split(sep).join('/')}\0`).update(readFileSync(file)).update('\0');
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
  cached = hash.digest('hex');
  return cached;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.map'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
