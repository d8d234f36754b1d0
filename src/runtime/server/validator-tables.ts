/**
 * Validator tables a definition gives either as the table or as a function that loads it (generated
 * code passes a dynamic import, so a start compiles none of them): a table given is a map at once,
 * a loaded one when its first user asks for it.
 */
import type { Validator } from '../api.js';
import type { ValidatorTable } from '../protocol/definition-types.js';

export type ValidatorSource = ValidatorTable | (() => Promise<ValidatorTable>) | undefined;
export type ValidatorMap = ReadonlyMap<string, Validator<unknown>>;

/** The table as a map when it was given as one (none: an empty map); undefined when it must be loaded. */
export function tableNow(source: ValidatorSource): ValidatorMap | undefined {
  return typeof source === 'function' ? undefined : new Map(Object.entries(source ?? {}));
}

/** The table as a map, loaded first when it was given as a function. */
export function loadTable(source: ValidatorSource): Promise<ValidatorMap> {
  return Promise.resolve(typeof source === 'function' ? source() : (source ?? {})).then(
    (table) => new Map(Object.entries(table)),
  );
}
