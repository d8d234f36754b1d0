/**
 * One example value per tool schema, for pages that show a call (`mcp-gen docs`, the README of a
 * `mcp-gen client --package`): the mock's generator at seed 0, each value checked by the tool's own
 * validator; a schema no generated value satisfies gets no example rather than a wrong one.
 */
import { compileToolValidators } from '../mock/validators.js';
import type { ServiceModel, ToolModel } from '../model/service-model.js';
import { SampleError, sampleValue } from './generate.js';

/** Same seed and path as always, so a page and a README show the same call. */
export function toolExamples(model: ServiceModel): (tool: ToolModel, which: 'input' | 'output') => unknown {
  const validators = compileToolValidators(model);
  return (tool, which) => {
    const schema = which === 'input' ? tool.inputSchema : tool.outputSchema;
    const validate = validators.get(tool.name)?.[which];
    if (schema === undefined || validate === undefined) return undefined;
    try {
      return sampleValue({ schema, seed: 0, path: `docs\u0000${tool.name}\u0000${which}`, validate, label: `tool ${tool.name} (${which}Schema)` });
    } catch (error) {
      if (error instanceof SampleError) return undefined;
      throw error;
    }
  };
}
