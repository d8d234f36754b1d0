import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * mcp-gen's cache folder in the user's home (downloaded schemas, the shared unit packs):
 * `MCP_GEN_CACHE_DIR`, else `$XDG_CACHE_HOME/mcp-gen`, else `~/.cache/mcp-gen`.
 */
export function userCacheDir(): string {
  return nonEmpty(process.env['MCP_GEN_CACHE_DIR']) ?? join(nonEmpty(process.env['XDG_CACHE_HOME']) ?? join(homedir(), '.cache'), 'mcp-gen');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
