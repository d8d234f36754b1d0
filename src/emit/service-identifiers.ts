import { isSafeIdentifier } from '../printer/names.js';
import type { ServiceModel } from '../model/service-model.js';

/**
 * Assigned identifiers are printed as code and name files, so the server and client emitters check
 * them rather than trust them: a model built by other means than the loader (a snapshot, a live
 * server) must not smuggle code or paths through them.
 */
export function assertSafeIdentifiers(model: ServiceModel, emitter: string): void {
  const all = [...model.tools, ...model.resources, ...model.resourceTemplates, ...model.prompts];
  for (const { ids } of all) {
    for (const id of [ids.pascal, ids.camel]) {
      if (!isSafeIdentifier(id)) throw new Error(`${emitter}: ${JSON.stringify(id)} is not a safe identifier`);
    }
  }
}
