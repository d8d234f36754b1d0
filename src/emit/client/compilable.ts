import type { ServiceModel, ToolModel } from '../../model/service-model.js';
import { embedAt } from '../shared/embed.js';
import { toolTypeNames, type ToolTypeNames } from '../shared/naming.js';
import { checkToolTypes } from '../types/tool-types.js';
import { createAjv } from '../validators/ajv-instance.js';
import { emitValidators } from '../validators/index.js';
import { dialectOf } from '../shared/dialect.js';

/** A tool the client leaves out: why, and where it sits in the snapshot ('' when it is not there). The CLI makes the warning. */
export interface LeftOutTool {
  pointer: string;
  message: string;
}

/**
 * A live server's schemas are untrusted: one that is not valid JSON Schema (a keyword of the wrong
 * type, a `pattern` that is no ECMA-262 regular expression) or cannot be compiled to a validator
 * or a type (a `$ref` to the network, a `$ref` to nothing) leaves its tool out, with a warning,
 * instead of failing the whole client. Each tool is tried on its own. The tool stays callable by
 * wire name through the runtime's `callTool` on `client.session`, unvalidated.
 */
export async function compilableTools(model: ServiceModel, snapshotTools?: readonly { [key: string]: unknown }[]): Promise<{ model: ServiceModel; leftOut: LeftOutTool[] }> {
  const leftOuts: LeftOutTool[] = [];
  const kept: ToolModel[] = [];
  for (const tool of model.tools) {
    const index = snapshotTools?.findIndex((t) => t['name'] === tool.name) ?? -1;
    const leftOut = (key: string, reason: string): void => {
      leftOuts.push({ pointer: index < 0 ? '' : `/tools/${index}${key === '' ? '' : `/${key}`}`, message: `tool ${JSON.stringify(tool.name)} left out: ${reason}` });
    };
    const invalid = invalidSchema(tool);
    if (invalid !== undefined) {
      leftOut(invalid.key, invalid.reason);
      continue;
    }
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
      await checkToolTypes(tool, toolTypeNames(single).get(tool.name) as ToolTypeNames);
      kept.push(tool);
    } catch (error) {
      leftOut('', `its schema cannot be compiled (${firstLine(error)})`);
    }
  }
  return { model: { ...model, tools: kept }, leftOut: leftOuts };
}

/** In-process ajv, as the generated validators judge schemas (the model's schemas are all 2020-12 by now). */
let ajv: ReturnType<typeof createAjv> | undefined;

/** The first reason a tool schema is not valid JSON Schema, checked against the meta-schema and compiled once. */
function invalidSchema(tool: ToolModel): { key: string; reason: string } | undefined {
  ajv ??= createAjv('2020-12', { standalone: false });
  for (const key of ['inputSchema', 'outputSchema'] as const) {
    const schema = tool[key];
    if (schema === undefined) continue;
    if (!ajv.validateSchema(schema)) {
      const error = ajv.errors?.[0];
      const where = error?.instancePath ? `${error.instancePath} ` : '';
      return { key, reason: `its ${key} is not valid JSON Schema: ${where}${error?.message ?? 'rejected by the meta-schema'}` };
    }
    try {
      ajv.compile(schema);
    } catch (error) {
      return { key, reason: `its ${key} does not compile: ${firstLine(error)}` };
    } finally {
      ajv.removeSchema(schema);
    }
  }
  return undefined;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.slice(0, 200) ?? '';
}
