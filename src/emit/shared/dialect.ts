import type { ServiceModel } from '../../model/service-model.js';
import { isDraft07Schema } from '../../schema/dialect.js';
import type { Dialect } from '../validators/ajv-instance.js';

/**
 * Tool schemas are 2020-12 unless they say otherwise (MCP's default). A manifest whose schemas all
 * declare draft-07 gets draft-07 validators: the server's, the client's and the mock's alike.
 */
export function dialectOf(model: ServiceModel): Dialect {
  const declared = model.tools.flatMap((t) => [t.inputSchema, t.outputSchema]).filter((s) => s !== undefined);
  return declared.every(isDraft07Schema) ? 'draft-07' : '2020-12';
}
