/**
 * The OpenAPI description behind an imported manifest (`upstream.source`), as a ledger input: the
 * ledger records its SHA-256, so `mcp-gen check` reports when the description changes after the
 * server was generated (the upstream drifted: import again, then regenerate). A description named
 * by URL is not fetched again by check; only files are compared.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { sha256Hex } from '../schema/sha256.js';
import type { RecipeInput } from '../write/ledger.js';
import { pathFromOut } from './ledger-inputs.js';

export interface OpenApiInput {
  input?: RecipeInput;
  /** Set when the description's bytes no longer match the digest the import wrote. */
  drift?: string;
}

/**
 * Finds `upstream.source` in the manifest's text. A text scan, not a parse: the loader has parsed
 * the manifest already, and an imported one is megabytes of YAML. The key names are specific
 * enough (`source:` holding `openapi:` and `sha256:`) to find in either YAML or JSON.
 */
export function openApiSourceOf(text: string): { openapi: string; sha256?: string } | undefined {
  const yaml = /^\s+source:\s*\n\s+openapi:\s*(?:"([^"\n]+)"|'([^'\n]+)'|([^\s#][^\n#]*?))\s*\n(?:\s+sha256:\s*"?([0-9a-f]{64})"?)?/m.exec(text);
  const json = yaml ? undefined : /"source"\s*:\s*\{\s*"openapi"\s*:\s*"([^"]+)"(?:\s*,\s*"sha256"\s*:\s*"([0-9a-f]{64})")?/.exec(text);
  const openapi = yaml ? (yaml[1] ?? yaml[2] ?? yaml[3]) : json?.[1];
  if (openapi === undefined) return undefined;
  const sha256 = yaml ? yaml[4] : json?.[2];
  return { openapi, ...(sha256 !== undefined ? { sha256 } : {}) };
}

export async function openApiInput(outDir: string, manifestPath: string): Promise<OpenApiInput> {
  let text: string;
  try {
    text = await readFile(manifestPath, 'utf8');
  } catch {
    return {};
  }
  if (!text.includes('openapi')) return {};
  const source = openApiSourceOf(text);
  if (source === undefined || /^https?:\/\//i.test(source.openapi)) return {};
  const path = resolve(dirname(manifestPath), source.openapi);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch {
    return { drift: `the OpenAPI description ${source.openapi} named by upstream.source cannot be read` };
  }
  const sha256 = sha256Hex(bytes);
  const input: RecipeInput = { role: 'openapi', path: pathFromOut(outDir, path), sha256 };
  return source.sha256 !== undefined && source.sha256 !== sha256
    ? { input, drift: `the OpenAPI description ${source.openapi} changed since it was imported: run \`mcp-gen import openapi\` again to see what changed (\`mcp-gen diff\` compares two descriptions)` }
    : { input };
}
