import type { ServiceModel, ToolModel } from '../../model/service-model.js';
import { embedAt } from '../server/schema-walk.js';
import { toolTypeNames } from '../server/naming.js';
import { toolTypes } from '../server/types-file.js';
import { emitValidators } from '../validators/index.js';
import { dialectOf } from '../server/index.js';

/**
 * A live server's schemas are untrusted: one that cannot be compiled to a validator or a type (a
 * `$ref` to the network, a keyword ajv rejects) leaves its tool out, with a warning, instead of
 * failing the whole client. Each tool is tried on its own.
 */
export async function compilableTools(model: ServiceModel): Promise<{ model: ServiceModel; warnings: string[] }> {
  const warnings: string[] = [];
  const kept: ToolModel[] = [];
  for (const tool of model.tools) {
    const single: ServiceModel = { ...model, tools: [tool], prompts: [] };
    try {
      const names = toolTypeNames(single).get(tool.name);
      if (tool.outputSchema && names?.output && names.validateOutput) {
        const defs = dialectOf(single) === 'draft-07' ? 'definitions' : '$defs';
        emitValidators({
          root: { [defs]: { [names.output]: embedAt(tool.outputSchema, `/${defs}/${names.output}`) } },
          dialect: dialectOf(single),
          entries: [{ exportName: names.validateOutput, ref: `#/${defs}/${names.output}`, typeName: names.output }],
        });
      }
      await toolTypes(single, toolTypeNames(single));
      kept.push(tool);
    } catch (error) {
      warnings.push(`tool ${JSON.stringify(tool.name)} left out: its schema cannot be compiled (${firstLine(error)})`);
    }
  }
  return { model: { ...model, tools: kept }, warnings };
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.slice(0, 200) ?? '';
}
