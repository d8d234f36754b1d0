/**
 * `mcp-gen mock`, past the command line: the model of the server to mock, from a manifest, a
 * snapshot file or a live server. src/mock serves it; the CLI prints where.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { inputProblem } from '../load/diagnostics.js';
import { introspect, readSnapshot, SNAPSHOT_FORMAT } from '../load/introspect.js';
import { serviceFromSnapshot } from '../model/service-from-snapshot.js';
import type { ServiceModel } from '../model/service-model.js';
import { MANIFEST_PROTOCOL_VERSIONS } from '../model/service.js';
import { printWarnings, withProgress, type Console } from './console.js';
import { flagPairs } from './flag-pairs.js';
import { loadManifest } from './manifest.js';
import { displayPath } from './paths.js';

/** A snapshot file is JSON whose `mcpGenSnapshot` says so; anything else is read as a manifest. */
async function isSnapshot(file: string): Promise<boolean> {
  if (!file.toLowerCase().endsWith('.json')) return false;
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as { mcpGenSnapshot?: unknown };
    return value.mcpGenSnapshot === SNAPSHOT_FORMAT;
  } catch {
    return false;
  }
}

/** What the mock is made from, besides a manifest or snapshot file. */
export interface MockSource {
  fromUrl?: string;
  header?: string[];
  allowOutsideRefs?: boolean;
}

/** The model a mock serves: a manifest's, a snapshot's, or a live server's (introspected once). */
export async function loadMockModel(source: string | undefined, options: MockSource, io: Console): Promise<ServiceModel> {
  if ((source === undefined) === (options.fromUrl === undefined)) {
    throw inputProblem('mcp-gen mock', 'give exactly one of: a manifest, a snapshot file, --from-url');
  }
  if (source !== undefined && !(await isSnapshot(source))) {
    const { model, warnings } = await loadManifest(source, { allowOutside: options.allowOutsideRefs === true });
    printWarnings(io, warnings);
    return model;
  }
  let snapshot;
  let place: string;
  if (source !== undefined) {
    snapshot = await readSnapshot(source);
    place = displayPath(resolve(source));
  } else {
    const headers = flagPairs(options.header, ':', '--header');
    snapshot = await withProgress(io, `reading ${options.fromUrl}…`, () => introspect({ url: options.fromUrl as string, ...(headers ? { headers } : {}) }, (line) => io.err(line)));
    place = options.fromUrl as string;
  }
  const built = serviceFromSnapshot(snapshot, `mcp-gen mock ${place}`, place);
  printWarnings(io, built.warnings);
  // A snapshot records the one revision introspection negotiated; the mock serves both eras anyway,
  // as a server generated from the same tools would.
  return { ...built.model, protocolVersions: [...MANIFEST_PROTOCOL_VERSIONS] };
}
