/**
 * The mock's validators: each tool's input and output schema compiled in memory with the ajv the
 * generator uses for `validators.js` (same dialect choice, same options, same formats), so the mock
 * accepts and refuses exactly what the generated server would.
 */
import type { ValidateFunction } from 'ajv';
import { dialectOf } from '../emit/shared/dialect.js';
import { createAjv } from '../emit/validators/ajv-instance.js';
import type { ServiceModel } from '../model/service-model.js';

export interface ToolValidators {
  input: ValidateFunction;
  output?: ValidateFunction;
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
