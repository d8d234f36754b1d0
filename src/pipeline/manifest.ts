/**
 * Manifest → ServiceModel: the load step, then the model step. Load returns the validated document
 * and never imports model; this is the one place that joins the two, for the commands (server,
 * client, diff, check) and the tests alike.
 */
import type { Diagnostic } from '../load/diagnostics.js';
import { orderDiagnostics, readManifest, type LoadManifestOptions } from '../load/manifest.js';
import { joinPointer } from '../load/yaml-positions.js';
import { buildServiceModel, type ManifestDocument } from '../model/service.js';
import type { ServiceModel } from '../model/service-model.js';

export type { LoadManifestOptions } from '../load/manifest.js';

export interface ManifestModel {
  model: ServiceModel;
  /** Things worth telling the user that do not stop generation (renamed identifiers, risky patterns). */
  warnings: Diagnostic[];
  /** Absolute paths of the schema files reached through `$ref` (the manifest itself not included). */
  schemaFiles: string[];
}

export async function loadManifest(manifestPath: string, options: LoadManifestOptions = {}): Promise<ManifestModel> {
  const read = await readManifest(manifestPath, options);
  // The loader validated the document against the manifest schema: it has the shape the model reads.
  const { model, renamings } = buildServiceModel(read.document as unknown as ManifestDocument, read.display);
  const clashes = renamings.map((r) =>
    read.placeAt(joinPointer('', r.collection, r.index, 'name'), `identifier clash: ${r.message}`, 'rename one of them if the suffix is unwelcome'),
  );
  return { model, warnings: orderDiagnostics([...read.warnings, ...clashes], read.display), schemaFiles: read.schemaFiles };
}
