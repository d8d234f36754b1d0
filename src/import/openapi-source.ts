/**
 * Reading an OpenAPI description: a file or an http(s) URL, JSON or YAML, OpenAPI 3.0/3.1 or Swagger
 * 2.0, with `$ref`s into other files. @readme/openapi-parser (maintained, Node 20, 3.0/3.1/2.0)
 * bundles the external references into the one document and validates it; a Swagger 2.0 document
 * is then converted to 3.0 by swagger2openapi. The root file is also parsed by mcp-gen's own
 * position-keeping parser, so every warning can name the line and column of the operation it concerns.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { InputError, UnreachableError, inputProblem, unplacedDiagnostic, type Diagnostic } from '../load/diagnostics.js';
import { parseInput } from '../load/json-source.js';
import { formatOf, type Position, type SourceFormat } from '../load/yaml-positions.js';
import { locateJsonPointers } from './json-locate.js';
import { sha256Hex } from '../schema/sha256.js';

type Json = { [key: string]: unknown };

export interface OpenApiSource {
  /** As the user named it (a path or a URL). */
  readonly name: string;
  readonly isUrl: boolean;
  /** SHA-256 of the root document's bytes. */
  readonly sha256: string;
  /** Positions in the root file (as written, before bundling or conversion) of many pointers at once. */
  locateAll(pointers: readonly string[]): Map<string, Position>;
  /** Bundled (every `$ref` local) and, for Swagger 2.0, converted to OpenAPI 3.0. */
  readonly document: Json;
  /** The version the source was written in: '2.0', '3.0.x', '3.1.x'. */
  readonly version: string;
  /** What the validator found (the import goes on: real descriptions are often slightly off). */
  readonly problems: Diagnostic[];
}

const FETCH_TIMEOUT_MS = 30_000;
/** Largest description read; GitHub's, the largest public one known, is about 12 MB. */
const MAX_BYTES = 64 * 1024 * 1024;

export async function readOpenApi(name: string): Promise<OpenApiSource> {
  const isUrl = /^https?:\/\//i.test(name);
  const bytes = isUrl ? await download(name) : await readLocal(name);
  const text = new TextDecoder().decode(bytes);
  const format: SourceFormat = isUrl ? (/\.ya?ml(?:[?#]|$)/i.test(name) || !text.trimStart().startsWith('{') ? 'yaml' : 'json') : formatOf(name);
  const parsed = parseInput(text, name, format);
  if (!parsed.document) throw new InputError(parsed.problems);
  const root = parsed.document.value;
  if (root === null || typeof root !== 'object' || Array.isArray(root)) throw inputProblem(name, 'is not an OpenAPI description (not a JSON or YAML object)');
  const rootObject = root as Json;
  const version = typeof rootObject['openapi'] === 'string' ? rootObject['openapi'] : rootObject['swagger'] === '2.0' ? '2.0' : undefined;
  if (version === undefined) throw inputProblem(name, 'is not an OpenAPI description: it has neither `openapi: 3.x` nor `swagger: "2.0"`');
  if (!/^(?:2\.0|3\.[01]\.\d+)$/.test(version)) throw inputProblem(name, `OpenAPI ${version} is not supported`, 'mcp-gen imports OpenAPI 3.0 and 3.1, and Swagger 2.0');

  const parser = await import('@readme/openapi-parser');
  const location = isUrl ? name : resolve(name);
  let bundled: Json = rootObject;
  // Bundling a document whose references are all local changes nothing and costs seconds on GitHub's.
  if (hasExternalRef(rootObject)) try {
    // Given the location (not the parsed root), the parser resolves relative references against it.
    bundled = (await parser.bundle(location, { resolve: { file: !isUrl, external: true, http: { timeout: FETCH_TIMEOUT_MS } } })) as unknown as Json;
  } catch (error) {
    throw inputProblem(name, `its references could not be resolved: ${(error as Error).message}`);
  }
  const problems = await validationProblems(parser, name, bundled);
  const document = version === '2.0' ? await convertSwagger(name, bundled) : bundled;
  const positions = parsed.document;
  const locateAll = (pointers: readonly string[]): Map<string, Position> =>
    format === 'json' ? locateJsonPointers(text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text, pointers) : new Map(pointers.map((p) => [p, positions.locate(p)]));
  return { name, isUrl, sha256: sha256Hex(bytes), locateAll, document, version, problems };
}

/** A `$ref` anywhere that does not start with `#`: another file, or a URL. */
function hasExternalRef(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasExternalRef);
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string' && !child.startsWith('#')) return true;
    if (hasExternalRef(child)) return true;
  }
  return false;
}

async function validationProblems(parser: typeof import('@readme/openapi-parser'), name: string, bundled: Json): Promise<Diagnostic[]> {
  try {
    const result = await parser.validate(structuredClone(bundled) as never, { validate: { errors: { colorize: false } } } as never);
    if (result.valid) return [];
    return result.errors.slice(0, 20).map((e) => unplacedDiagnostic(name, '', `not valid OpenAPI (imported anyway): ${e.message.split('\n')[0]}`));
  } catch (error) {
    return [unplacedDiagnostic(name, '', `could not be validated (imported anyway): ${(error as Error).message.split('\n')[0]}`)];
  }
}

/** Swagger 2.0 → OpenAPI 3.0, by swagger2openapi (its `patch` mode repairs the common small faults). */
async function convertSwagger(name: string, bundled: Json): Promise<Json> {
  const require = createRequire(import.meta.url);
  const converter = require('swagger2openapi') as { convertObj(doc: unknown, options: Json): Promise<{ openapi: Json }> };
  try {
    const { openapi } = await converter.convertObj(bundled, { patch: true, warnOnly: true, resolve: false, direct: false });
    return openapi;
  } catch (error) {
    throw inputProblem(name, `this Swagger 2.0 description could not be converted to OpenAPI 3.0: ${(error as Error).message.split('\n')[0]}`);
  }
}

async function readLocal(name: string): Promise<Uint8Array> {
  try {
    const bytes = await readFile(name);
    if (bytes.length > MAX_BYTES) throw inputProblem(name, `is larger than ${MAX_BYTES / 1024 / 1024} MiB`);
    return bytes;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw inputProblem(name, `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

async function download(url: string): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' } });
  } catch (error) {
    throw new UnreachableError([unplacedDiagnostic(url, '', `could not be fetched: ${(error as Error).message}`)]);
  }
  if (!response.ok) throw new UnreachableError([unplacedDiagnostic(url, '', `answered HTTP ${response.status}`)]);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > MAX_BYTES) throw inputProblem(url, `is larger than ${MAX_BYTES / 1024 / 1024} MiB`);
  return bytes;
}
