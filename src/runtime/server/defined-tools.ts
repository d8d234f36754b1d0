/**
 * The definition's tools in one shape, whichever form they came in: objects with a bindings table
 * (hand-written definitions, tests) or JSON texts with the facts start-up needs (generated
 * servers, `ToolText`). Nothing here parses a text: that waits for whoever needs the object.
 */
import type { JsonObject, ServerDefinition, ToolBinding, ToolText } from '../api.js';
import { isObject } from '../protocol/jsonrpc.js';
import { WireEntry } from './lists.js';
import { taskSupportOf } from './task-settings.js';

export interface DefinedTool {
  readonly name: string;
  /** The `tools/list` entry. */
  readonly wire: WireEntry;
  readonly binding: ToolBinding;
  /** See `ToolEntry.objectOutput`. */
  readonly objectOutput: boolean;
  readonly taskSupport: 'forbidden' | 'optional' | 'required';
}

/** The definition's tools in manifest order. */
export function definedTools(definition: ServerDefinition): DefinedTool[] {
  const texts = definition.toolTexts;
  if (texts === undefined) return definition.tools.map((tool) => fromObject(tool, definition));
  if (definition.tools.length > 0 || Object.keys(definition.toolBindings).length > 0)
    throw new Error(
      'A definition gives its tools either in `tools` and `toolBindings` or in `toolTexts`, not both',
    );
  return texts.map(fromText);
}

function fromObject(tool: JsonObject, definition: ServerDefinition): DefinedTool {
  const name = tool['name'];
  if (typeof name !== 'string')
    throw new Error('Every tool in the definition needs a string "name"');
  const bindings = definition.toolBindings;
  const binding = Object.hasOwn(bindings, name) ? bindings[name] : undefined;
  if (binding === undefined) throw new Error(`Tool ${name} has no entry in toolBindings`);
  return {
    name,
    wire: WireEntry.ofValue(tool),
    binding,
    objectOutput: hasObjectOutput(tool),
    taskSupport: taskSupportOf(tool),
  };
}

function fromText(tool: ToolText): DefinedTool {
  const { name, text, taskSupport, objectOutput } = tool as Partial<ToolText>;
  if (typeof name !== 'string') throw new Error('Every tool in toolTexts needs a string "name"');
  if (typeof text !== 'string' && typeof text !== 'function')
    throw new Error(
      `Tool ${name}: "text" must be its tools/list entry as JSON, or a function that returns it`,
    );
  if (taskSupport !== undefined && taskSupport !== 'optional' && taskSupport !== 'required')
    throw new Error(`Tool ${name}: taskSupport must be "optional" or "required" when given`);
  if (objectOutput !== undefined && objectOutput !== false)
    throw new Error(`Tool ${name}: objectOutput is given only as false`);
  return {
    name,
    wire: typeof text === 'string' ? WireEntry.ofText(text, name) : WireEntry.madeText(text, name),
    binding: tool,
    objectOutput: objectOutput ?? true,
    taskSupport: taskSupport ?? 'forbidden',
  };
}

/** A tool without an outputSchema, or whose outputSchema describes an object, as every revision allows. */
export function hasObjectOutput(tool: JsonObject): boolean {
  const schema = tool['outputSchema'];
  return schema === undefined || (isObject(schema) && schema['type'] === 'object');
}
