/**
 * `mcp-gen docs`, past the command line: a manifest, a live server or a snapshot → model → the
 * reference page, `index.html`, a generated file with a banner and a ledger like every output (so
 * `mcp-gen check` covers it too).
 */
import { resolve } from 'node:path';
import { renderDocsPage } from '../docs/page.js';
import { introspect, readSnapshot } from '../load/introspect.js';
import { serviceFromSnapshot } from '../model/service-from-snapshot.js';
import type { ServiceModel } from '../model/service-model.js';
import { toolExamples } from '../samples/tool-examples.js';
import type { LedgerRecord, Recipe, RecipeInput } from '../write/ledger.js';
import { writeOutput, type WriteReport } from '../write/writer.js';
import type { ClientSource } from './client.js';
import { location } from './client-live-source.js';
import { printWarnings, withProgress, type Console } from './console.js';
import { fileInput, pathFromOut } from './ledger-inputs.js';
import { loadManifest } from './manifest.js';
import { commandBanner, displayPath, toolVersion } from './paths.js';

export interface DocsJob {
  out: string;
  source: ClientSource;
  allowOutsideRefs?: boolean;
  banner: Recipe['banner'];
}

/** The same, compared with the output folder and never written: what `mcp-gen check` runs. */
export function checkDocs(job: DocsJob, io: Console): Promise<{ report: WriteReport; record: LedgerRecord }> {
  return writeDocs(job, true, io);
}

/** source → model → index.html → output folder (or, with `check`, compared with it). */
export async function writeDocs(job: DocsJob, check: boolean, io: Console): Promise<{ report: WriteReport; record: LedgerRecord }> {
  const { model, inputs } = await loadModel(job, io);
  const page = renderDocsPage(model, { generator: `mcp-gen ${toolVersion()}`, example: toolExamples(model) });
  const record: LedgerRecord = { mcpGenVersion: toolVersion(), recipe: { command: 'docs', options: recipeOptions(job), banner: job.banner, inputs } };
  const banner = commandBanner(job.banner.command, job.banner.version);
  const report = await writeOutput(job.out, [{ path: 'index.html', owner: 'generated', format: 'none', content: page }], { banner, check, record });
  return { report, record };
}

async function loadModel(job: DocsJob, io: Console): Promise<{ model: ServiceModel; inputs: RecipeInput[] }> {
  const source = job.source;
  if ('manifest' in source) {
    const { model, warnings, schemaFiles } = await loadManifest(source.manifest, { allowOutside: job.allowOutsideRefs === true });
    printWarnings(io, warnings);
    const inputs = [await fileInput('manifest', job.out, source.manifest)];
    for (const file of schemaFiles) inputs.push(await fileInput('schema', job.out, file));
    return { model, inputs };
  }
  if ('fromSnapshot' in source) {
    const snapshot = await readSnapshot(source.fromSnapshot);
    const built = serviceFromSnapshot(snapshot, job.banner.command, displayPath(resolve(source.fromSnapshot)));
    printWarnings(io, built.warnings);
    return { model: built.model, inputs: [await fileInput('snapshot', job.out, source.fromSnapshot)] };
  }
  const live = location(source);
  const snapshot = await withProgress(io, 'reading the server…', () => introspect(live!, (line) => io.err(line)));
  const built = serviceFromSnapshot(snapshot, job.banner.command, 'fromUrl' in source ? source.fromUrl : (source as { fromCommand: string }).fromCommand);
  printWarnings(io, built.warnings);
  // A live server is its own input: check regenerates from it again.
  return { model: built.model, inputs: [] };
}

function recipeOptions(job: DocsJob): Recipe['options'] {
  const source = job.source;
  const options: Recipe['options'] =
    'manifest' in source ? { manifest: pathFromOut(job.out, source.manifest) }
    : 'fromSnapshot' in source ? { fromSnapshot: pathFromOut(job.out, source.fromSnapshot) }
    : 'fromUrl' in source ? { fromUrl: source.fromUrl }
    : { fromCommand: source.fromCommand };
  if (job.allowOutsideRefs === true) options['allowOutsideRefs'] = true;
  return options;
}
