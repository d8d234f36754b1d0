/**
 * Manifest → ServiceModel: the load step, then the model step. Load returns the validated document
 * and never imports model; this is the one place that joins the two, for the commands (server,
 * client, diff, check) and the tests alike.
 */
import type { Diagnostic } from '../load/diagnostics.js';
import { orderDiagnostics, readManifest, type LoadManifestOptions } from '../load/manifest.js';
import { STATELESS_REVISION } from '../load/spec.js';
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
  const outputs = statefulOutputWarnings(model, read.placeAt);
  return { model, warnings: orderDiagnostics([...read.warnings, ...clashes, ...outputs], read.display), schemaFiles: read.schemaFiles };
}

/**
 * 2026-07-28 allows an outputSchema of any type; the stateful revisions only an object schema. The
 * generated server then lists such a tool for their sessions without its outputSchema and answers
 * them without `structuredContent` (src/runtime/features/tools/tools.ts, `objectOutput`): worth saying, per tool.
 */
function statefulOutputWarnings(model: ServiceModel, placeAt: (pointer: string, message: string, hint?: string) => Diagnostic): Diagnostic[] {
  const stateful = model.protocolVersions.filter((version) => version !== STATELESS_REVISION);
  if (!model.protocolVersions.includes(STATELESS_REVISION) || stateful.length === 0) return [];
  const revisions = stateful.length === 1 ? stateful[0]! : `${stateful.slice(0, -1).join(', ')} and ${stateful.at(-1)!}`;
  return model.tools.flatMap((tool, index) => {
    const schema = tool.outputSchema;
    // The runtime's test, on the same bundled schema (server-file.ts writes it as `objectOutput: false`).
    if (schema === undefined || schema['type'] === 'object') return [];
    const what = schema['type'] === undefined ? "has no 'type: object' at its root" : `is of type ${JSON.stringify(schema['type'])}`;
    return [
      placeAt(
        joinPointer('/tools', index, 'outputSchema'),
        `the outputSchema of tool '${tool.name}' ${what}: only 2026-07-28 clients see it; sessions on ${revisions} get the tool without an outputSchema and its results without structuredContent`,
        "they receive the handler's content, or the value's JSON as one text block when it gives none; wrap the value in an object (`type: object`) to give every client structured results",
      ),
    ];
  });
}
