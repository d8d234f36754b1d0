/**
 * The pipeline's half of `mcp-gen client --package <name>` (the files are planned by
 * src/emit/client/package.ts): checks the name and `--package-version`, reads what the user owns in
 * the output's package.json, and decides the version. A regeneration whose server surface differs
 * from the `api-snapshot.json` on disk is diffed as `mcp-gen diff` would and bumps the version by
 * the worst finding; without a change the version on disk is kept as it is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { worst, type Finding, type Severity } from '../diff/finding.js';
import { inputProblem } from '../load/diagnostics.js';
import type { ServiceModel } from '../model/service-model.js';
import { terminalText } from '../printer/escape.js';
import { API_SNAPSHOT, planPackage } from '../emit/client/package.js';
import type { PlannedFile } from '../write/planned-file.js';
import { toolExamples } from '../samples/tool-examples.js';
import type { Console } from './console.js';
import { PACKAGE_ROOT } from './paths.js';

/** A new package's version: under 1.0.0, so the first breaking change is a minor bump. */
const FIRST_VERSION = '0.1.0';

/** Names npm accepts for a new package: lowercase, URL-safe, optionally scoped, at most 214 characters. */
const NPM_NAME = /^(?:@[a-z0-9-*~][a-z0-9-*._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;
/** Names npm refuses although they match, and Node's built-in modules, which a require() would shadow. */
const RESERVED_NAMES = new Set(['node_modules', 'favicon.ico']);
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** Exit 2 with the reason when `name` cannot be published to npm as given. */
export function checkPackageName(name: string, builtins: readonly string[]): void {
  const problem =
    name.length === 0 ? 'is empty'
    : name.length > 214 ? 'is longer than 214 characters'
    : name !== name.trim() ? 'has leading or trailing spaces'
    : name.toLowerCase() !== name ? 'has capital letters'
    : /^[._]/.test(name) ? 'starts with a dot or an underscore'
    : !NPM_NAME.test(name) ? 'has characters npm does not allow (use a-z, 0-9, -, ., _, ~ and an optional @scope/)'
    : RESERVED_NAMES.has(name) || builtins.includes(name) ? 'is reserved (a Node built-in or a name npm refuses)'
    : undefined;
  if (problem !== undefined) {
    throw inputProblem('--package', `${JSON.stringify(terminalText(name))} is not a valid npm package name: it ${problem}`, 'e.g. --package weather-client or --package @my-org/weather-client');
  }
}

export function checkPackageVersion(version: string): void {
  if (!SEMVER.test(version)) throw inputProblem('--package-version', `${JSON.stringify(terminalText(version))} is not a semantic version`, 'e.g. --package-version 1.0.0');
}

/** The next version after a change of this severity (semver; under 1.0.0 a breaking change bumps the minor). */
function bumpVersion(version: string, severity: Severity): string {
  const [major, minor, patch] = (SEMVER.exec(version) ?? ['', '0', '1', '0']).slice(1, 4).map(Number) as [number, number, number];
  if (severity === 'breaking') return major === 0 ? `0.${minor + 1}.0` : `${major + 1}.0.0`;
  if (severity === 'compatible' && major > 0) return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/**
 * Modules a package carries beside Node's client so that one build serves both: the `browser`
 * field of its package.json swaps them in for a bundler building for the web (HTTP on fetch, no
 * stdio, no node:*; without the OAuth sign-in, which needs Node). Read from mcp-gen's runtime.
 */
export function browserRuntimeSources(auth: boolean): Record<string, string> {
  const names = ['client/connect-browser.ts', 'client/fetch-wire.ts', ...(auth ? ['client/oauth-module-absent.ts'] : [])];
  // A runtime without the browser's modules gives a package without the swaps (Node's client only).
  const present = names.map((name) => join(PACKAGE_ROOT, 'src', 'runtime', name)).filter((path) => existsSync(path));
  return present.length === names.length ? Object.fromEntries(names.map((name, i) => [name, readFileSync(present[i] as string, 'utf8')])) : {};
}

export interface PackageJob {
  name: string;
  /** `--package-version`: written as given, no bump. */
  version?: string;
}

/** The package's files around the client's, with its version decided. */
export async function packageFiles(out: string, pkg: PackageJob, model: ServiceModel, clientFiles: readonly PlannedFile[], auth: boolean, io: Console): Promise<PlannedFile[]> {
  const existing = readExistingPackageJson(out);
  const onDisk = typeof existing?.['version'] === 'string' && SEMVER.test(existing['version']) ? existing['version'] : undefined;
  let version = pkg.version ?? onDisk ?? FIRST_VERSION;
  if (pkg.version === undefined && onDisk !== undefined) {
    const findings = await changesSinceSnapshot(out, model);
    if (findings.length > 0) {
      const severity = worst(...findings.map((f) => f.severity));
      version = bumpVersion(onDisk, severity);
      const first = findings.find((f) => f.severity === severity) as Finding;
      io.err(`note: ${pkg.name} ${onDisk} → ${version}: ${findings.length} change(s) since ${API_SNAPSHOT}, the worst ${severity} (${terminalText(first.message)}); \`mcp-gen diff ${API_SNAPSHOT} <new>\` lists them`);
    }
  }
  const examples = toolExamples(model);
  return planPackage(model, clientFiles, { name: pkg.name, version, auth, example: (tool) => examples(tool, 'input'), ...(existing ? { existing } : {}) });
}

function readExistingPackageJson(out: string): { [key: string]: unknown } | undefined {
  const path = join(out, 'package.json');
  if (!existsSync(path)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw inputProblem(path, `not JSON: ${(error as Error).message}`, 'fix it or remove it; its fields other than the generated ones are kept on regeneration');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw inputProblem(path, 'must be a JSON object');
  return value as { [key: string]: unknown };
}

/**
 * What changed for callers between the surface on disk and the new one; none without a snapshot.
 * The snapshot reader and the diff are loaded here, not at start: the snapshot reader pulls in the
 * runtime client, which a client made from a manifest never needs (test/write/lazy-imports.test.ts).
 */
async function changesSinceSnapshot(out: string, model: ServiceModel): Promise<Finding[]> {
  const path = join(out, API_SNAPSHOT);
  if (!existsSync(path)) return [];
  const [{ readSnapshot }, { serviceFromSnapshot }, { compareServers }, { surfaceFromModel }] = await Promise.all([
    import('../load/introspect.js'),
    import('../model/service-from-snapshot.js'),
    import('../diff/compare-server.js'),
    import('../diff/server-surface.js'),
  ]);
  const previous = serviceFromSnapshot(await readSnapshot(path), path).model;
  return compareServers(surfaceFromModel(previous).surface, surfaceFromModel(model).surface);
}
