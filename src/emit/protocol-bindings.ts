import { pointerSegment } from '../schema/keywords.js';
import type { ProtocolModel } from '../model/protocol.js';
import type { PlannedFile } from '../write/planned-file.js';
import { emitProtocolTypes, type DocsMode } from './types/index.js';
import { emitValidators } from './validators/index.js';

/**
 * `mcp-gen types`: one revision's bindings. `types.ts` holds every definition, the unions and the
 * method maps; `validators.js` one standalone guard per definition (the unions are definitions
 * too), typed against `types.ts` by `validators.d.ts`.
 */
export async function planProtocolBindings(
  model: ProtocolModel,
  options: { docs: DocsMode },
): Promise<{ files: PlannedFile[]; warnings: string[] }> {
  const types = await emitProtocolTypes(model, { docs: options.docs });
  const definitions = Object.values(model.definitions);
  const validators = emitValidators({
    root: { $defs: Object.fromEntries(definitions.map((d) => [d.name, d.schema])) },
    dialect: model.dialect,
    entries: definitions.map((d) => ({
      exportName: `validate${d.identifier}`,
      ref: `#/$defs/${pointerSegment(d.name)}`,
      typeName: d.identifier,
    })),
    typesModule: './types.js',
  });
  return {
    files: [
      { path: 'types.ts', content: types, owner: 'generated', format: 'typescript' },
      { path: 'validators.js', content: validators.js, owner: 'generated', format: 'none' },
      { path: 'validators.d.ts', content: validators.dts, owner: 'generated', format: 'typescript' },
    ],
    warnings: validators.warnings,
  };
}
