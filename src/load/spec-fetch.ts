import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InputError, inputProblem, UnreachableError } from './diagnostics.js';

/** How long one schema download may take before it counts as offline. */
const DOWNLOAD_TIMEOUT_MS = 30_000;

export const OFFLINE_HINT =
  'without network, point mcp-gen at a local copy: --spec-dir <dir> or MCP_SPEC_DIR=<dir>, laid out as <dir>/<revision>/schema.json';

/**
 * Downloads a text document. Any failure (network, timeout, HTTP status) is an UnreachableError
 * about `url`: the network's or the server's fault, so the CLI exits 3, not 2.
 */
export async function downloadText(url: string, fetchImpl: typeof fetch): Promise<string> {
  let response: Response;
  try {
    response = await fetchImpl(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), redirect: 'follow' });
  } catch (error) {
    throw unreachable(url, `could not download the schema: ${describeFailure(error)}`);
  }
  if (!response.ok) {
    throw unreachable(url, `could not download the schema: HTTP ${response.status} ${response.statusText}`.trimEnd());
  }
  try {
    return await response.text();
  } catch (error) {
    throw unreachable(url, `could not read the downloaded schema: ${describeFailure(error)}`);
  }
}

function unreachable(url: string, message: string): UnreachableError {
  return new UnreachableError(inputProblem(url, message, OFFLINE_HINT).diagnostics);
}

/** Reads a file, or returns undefined when it does not exist. */
export async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw inputProblem(path, code === 'EISDIR' ? 'is a folder, not a schema file' : `cannot read: ${describeFailure(error)}`);
  }
}

/**
 * Stores a downloaded schema in the cache: written beside its final name and renamed into place,
 * so a concurrent run never reads half a file. A cache that cannot be written is not fatal.
 */
export async function storeInCache(path: string, text: string): Promise<InputError | undefined> {
  const staging = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(staging, text, 'utf8');
    await rename(staging, path);
    return undefined;
  } catch (error) {
    return inputProblem(path, `could not cache the downloaded schema: ${describeFailure(error)}`);
  }
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return `no answer within ${DOWNLOAD_TIMEOUT_MS / 1000} s`;
  // undici hides the system error (ENOTFOUND, ECONNREFUSED…) in `cause`.
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
