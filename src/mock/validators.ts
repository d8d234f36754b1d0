/**
 * The mock's validators: each tool's input and output schema compiled in memory with the ajv the
 * generator uses for `validators.js` (same dialect choice, same options, same formats), so the mock
 * accepts and refuses exactly what the generated server would.
 */
import type { ValidateFunction } from 'ajv';
import { createAjv, type Dialect } from '../emit/validators/ajv-instance.js';
import { isDraft07Schema } from '../load/draft07.js';
import type { ServiceModel } from '../model/service-model.js';

export interface ToolValidators {
  input: ValidateFunction;
  output?: ValidateFunction;
}

/**
 * The rule of `dialectOf` in src/emit/server (draft-07 only when every tool schema declares it),
 * restated here so the mock does not load the server emitter (ts-morph, prettier) at start-up.
 */
function dialectOf(model: ServiceModel): Dialect {
  const declared = model.tools.flatMap((t) => [t.inputSchema, t.outputSchema]).filter((s) => s !== undefined);
  return declared.every(isDraft07Schema) ? 'draft-07' : '2020-12';
}

export function compileToolValidators(model: ServiceModel): Map<string, ToolValidators> {
  // One ajv per tool: schemas may repeat an `$id`, which one instance would refuse.
  const dialect = dialectOf(model);
  const out = new Map<string, ToolValidators>();
  for (const tool of model.tools) {
    const ajv = createAjv(dialect, { standalone: false });
    const input = ajv.compile(tool.inputSchema);
    out.set(tool.name, tool.outputSchema ? { input, output: createAjv(dialect, { standalone: false }).compile(tool.outputSchema) } : { input });
  }
  return out;
}
