import type { ServiceModel } from '../../model/service-model.js';

/** Names of the types and validators generated for one tool. */
export interface ToolTypeNames {
  input: string;
  /** Undefined when the tool declares no outputSchema. */
  output: string | undefined;
  validateInput: string;
  validateOutput: string | undefined;
}

/**
 * `GetWeatherInput`, `validateGetWeatherInput`, …, from the identifiers the model assigned. Every
 * type name ends in `Input` or `Output` and definition types add `_<Key>` (see types-file.ts), so
 * the two kinds never meet, whatever the tools are called.
 */
export function toolTypeNames(model: ServiceModel): Map<string, ToolTypeNames> {
  const names = new Map<string, ToolTypeNames>();
  for (const tool of model.tools) {
    const p = typeBase(tool.ids.pascal);
    const hasOutput = tool.outputSchema !== undefined;
    names.set(tool.name, {
      input: `${p}Input`,
      output: hasOutput ? `${p}Output` : undefined,
      validateInput: `validate${p}Input`,
      validateOutput: hasOutput ? `validate${p}Output` : undefined,
    });
  }
  return names;
}

/**
 * json-schema-to-typescript passes every name through its own normalizer, which capitalizes a
 * letter that follows a digit (`_1abc` → `_1Abc`); names given to it must already look like that.
 * Only letter case changes, and assigned identifiers are unique ignoring case, so nothing collides.
 */
export function typeBase(pascal: string): string {
  return pascal.replace(/(\d)([a-z])/g, (_, digit: string, letter: string) => digit + letter.toUpperCase());
}
