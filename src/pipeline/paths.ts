import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative, resolve, sep } from 'node:path';
import { BUNDLED_SPEC_DIR } from '../load/revisions.js';
import type { BannerOptions } from '../write/render.js';

/** The mcp-gen package root (two levels up from both src/cli and dist/cli). */
export const PACKAGE_ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)));

/** mcp-gen's own version, from its package.json. */
export function toolVersion(): string {
  const text = readFileSync(resolve(PACKAGE_ROOT, 'package.json'), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

/** The banner of a command's output: the command to regenerate it, and the version unless --no-version-banner. */
export function commandBanner(command: string, versionBanner: boolean): BannerOptions {
  return versionBanner ? { version: toolVersion(), command } : { command };
}

/** Path of `target` relative to the working directory, posix-style, for messages. */
export function displayPath(target: string): string {
  const rel = relative(process.cwd(), target);
  return (rel === '' ? '.' : rel).split(sep).join('/');
}

/** `MCP_SPEC_DIR`, else the schemas shipped in the package, so revision names work offline. */
export function defaultSpecDir(): string {
  return resolve(process.env['MCP_SPEC_DIR'] ?? BUNDLED_SPEC_DIR);
}
