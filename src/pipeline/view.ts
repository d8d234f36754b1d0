/**
 * `mcp-gen client --view <ui://…>`: the typed bindings of one MCP Apps view (src/emit/view/) in
 * place of a client, from the same sources (a manifest, a live server or a snapshot).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { planView, viewUris } from '../emit/view/index.js';
import { withImportExtension, type ImportExtension } from '../emit/import-extension.js';
import { inputProblem } from '../load/diagnostics.js';
import type { ServiceModel } from '../model/service-model.js';
import type { PlannedFile } from '../write/planned-file.js';
import type { UnitCache } from '../write/unit-cache.js';
import { PACKAGE_ROOT } from './paths.js';

/** The page's runtime, copied as it is: src/runtime/client/view/. */
const BRIDGE_FILES = ['bridge.ts', 'view-object.ts'];

export async function viewFiles(model: ServiceModel, uri: string, importExtension: ImportExtension, cache?: UnitCache): Promise<PlannedFile[]> {
  const known = viewUris(model);
  if (!known.includes(uri)) {
    throw inputProblem('mcp-gen client --view', `the server has no view ${JSON.stringify(uri)}`, known.length === 0 ? 'it declares no MCP Apps views' : `its views: ${known.join(', ')}`);
  }
  const dir = join(PACKAGE_ROOT, 'src', 'runtime', 'client', 'view');
  const bridgeSources = Object.fromEntries(BRIDGE_FILES.map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
  const files = await planView(model, uri, { bridgeSources, importExtension, ...(cache ? { memo: cache.memo, memoAsync: cache.memoAsync.bind(cache) } : {}) });
  return withImportExtension(files, importExtension);
}
