import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

/** The mcp-gen package root (two levels up from both src/cli and dist/cli). */
export const PACKAGE_ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)));

/** `MCP_SPEC_DIR`, else `<package root>/../shared/mcp-spec`, where this project keeps the official schemas. */
export function defaultSpecDir(): string {
  return resolve(process.env['MCP_SPEC_DIR'] ?? resolve(PACKAGE_ROOT, '../shared/mcp-spec'));
}
