import { schemaDigest } from '../../schema/digest.js';
import { isMetaChecked } from '../../schema/meta-checked.js';
import type { ServiceModel, ToolModel } from '../../model/service-model.js';
import type { PlannedFile } from '../../write/planned-file.js';
import { stringLiteral } from '../../printer/escape.js';
import { defineOwn, type SchemaObject } from '../../schema/keywords.js';
import { assertSafeIdentifiers } from '../service-identifiers.js';
import type { ValidatorEntry } from '../validators/index.js';
import { emitTypedToolValidators, type Memo, type ToolValidatorUnit } from '../validators/tool-validators.js';
import { planSharedDefinitions, sharedStubKeys, withSharedStubs } from '../validators/shared-defs.js';
import { dialectOf } from '../shared/dialect.js';
import { toolTypeNames, type ToolTypeNames } from '../shared/naming.js';
import { embedAt } from '../shared/embed.js';
import type { UnitMemo } from '../../printer/format.js';
import { unitMarker } from '../../printer/format.js';
import { assembleTypes, FIXED_NAMES, promptArgumentTypes, TYPES_MODULE } from '../types/types-file.js';
import { toolTypeUnits } from '../types/tool-types.js';
import { clientFile } from './client-file.js';
import type { ImportExtension } from '../import-extension.js';

export interface ClientInputs {
  /**
   * The client runtime, by path under `runtime/`: `client/*.ts` and the shared modules they import
   * (`SHARED_RUNTIME`: `api.ts` and the `protocol/` modules). The CLI reads them; emitters never touch the file system.
   */
  runtimeSources: Readonly<Record<string, string>>;
  /** mcp-gen's generated protocol types of 2025-11-25: the stateful revisions' `request()` map and the types the client uses. */
  protocolTypes: string;
  /** The same for 2026-07-28: `request()` on a client of the stateless revision. */
  statelessProtocolTypes: string;
  /** Reuses what an earlier run computed from the same input (the output folder's unit cache). */
  memo?: Memo;
  /** The same for asynchronous steps: types.ts and client.ts are assembled from cached, formatted units. */
  memoAsync?: UnitMemo;
  /** `--auth`: `runtimeSources` has `client/auth/*.ts`, and `package.json` names their dependency. */
  auth?: boolean;
  /** What relative module specifiers end with (`--import-extension`); `js` by default. */
  importExtension?: ImportExtension;
}

export interface ClientPlan {
  files: PlannedFile[];
  warnings: string[];
}

/** The server runtime's modules the client imports too, by path under `runtime/` (the output mirrors src/runtime's folders). */
export const SHARED_RUNTIME = [
  'api.ts',
  'protocol/content-types.ts',
  'protocol/definition-types.ts',
  'protocol/errors.ts',
  'protocol/header-params.ts',
  'protocol/input-types.ts',
  'protocol/jsonrpc.ts',
  'protocol/list-types.ts',
  'protocol/methods.ts',
  'protocol/task-types.ts',
  'protocol/server-options.ts',
  'protocol/trace-context.ts',
];
const REQUIRED_RUNTIME = [...SHARED_RUNTIME, 'client/index.ts'];
const RUNTIME_PATH = /^(client\/(auth\/)?|protocol\/)?[a-z][a-z0-9-]*\.ts$/;
/** The one package the OAuth module imports, pinned as mcp-gen's own package.json pins it. */
export const OAUTH_DEPENDENCY = { oauth4webapi: '3.8.8' } as const;

/**
 * Everything `mcp-gen client` writes, all of it generated: `client.ts` (`connect` and the typed
 * `Client`), `types.ts` (each tool's input and output types, prompt arguments), `validators.ts`
 * (the output schemas, ajv standalone), `protocol.ts` and `protocol-2026-07-28.ts`
 * (the protocol's types, for `request` in either era) and `runtime/`.
 */
export async function planClient(model: ServiceModel, inputs: ClientInputs): Promise<ClientPlan> {
  assertSafeIdentifiers(model, 'planClient');
  const toolNames = toolTypeNames(model);
  const files: PlannedFile[] = runtimeFiles(inputs.runtimeSources);
  // mcp-gen's own generated protocol types, formatted when they were generated (a test holds them
  // to the generator's prettier options): copied as they are.
  files.push({ path: 'protocol.ts', owner: 'generated', format: 'none', content: inputs.protocolTypes });
  files.push({ path: 'protocol-2026-07-28.ts', owner: 'generated', format: 'none', content: inputs.statelessProtocolTypes });

  // Started first: with many tools the validators compile on worker threads (and the types units
  // on one of their own) while client.ts is planned here.
  const withValidators = model.tools.some((t) => t.outputSchema !== undefined);
  const validatorsPlanned = outputValidators(model, toolNames, inputs.memo, inputs.importExtension ?? 'js');
  // Assembled from formatted units (tool-types.ts): the writer formats neither this nor client.ts.
  const typesPlanned = toolTypeUnits(model, toolNames, FIXED_NAMES, inputs.memoAsync).then((tools) => {
    const types = [tools.toolsMap, '\n', unitMarker('types'), '\n\n', promptArgumentTypes(model)];
    if (model.resources.length > 0) {
      types.push(`\n/** The URI of every resource the server lists. */\nexport type ResourceUri = ${model.resources.map((r) => stringLiteral(r.uri)).join(' | ')};\n`);
    }
    return assembleTypes(types.join(''), tools, inputs.memoAsync);
  });
  const clientPlanned = clientFile(model, toolNames, withValidators, inputs.memoAsync);
  const [typesContent, validators, clientContent] = await Promise.all([typesPlanned, validatorsPlanned, clientPlanned]);
  files.push({ path: `${TYPES_MODULE}.ts`, owner: 'generated', format: 'none', content: typesContent });
  if (validators) files.push(...validators.files);
  files.push({ path: 'client.ts', owner: 'generated', format: 'none', content: clientContent });
  if (inputs.auth === true) {
    // Only `runtime/client/auth/` imports a package; this names it for the app's install.
    const manifest = { private: true, type: 'module', dependencies: OAUTH_DEPENDENCY };
    files.push({ path: 'package.json', owner: 'generated', format: 'none', content: `${JSON.stringify(manifest, null, 2)}\n` });
  }
  return { files, warnings: validators?.warnings ?? [] };
}

/** `validators.ts` with one validator per outputSchema; undefined when no tool has one. */
export async function outputValidators(model: ServiceModel, toolNames: Map<string, ToolTypeNames>, memo: Memo | undefined, extension: ImportExtension): Promise<{ files: PlannedFile[]; warnings: string[] } | undefined> {
  const withOutput = model.tools.filter((t): t is ToolModel & { outputSchema: SchemaObject } => t.outputSchema !== undefined);
  if (withOutput.length === 0) return undefined;
  const dialect = dialectOf(model);
  const defs = dialect === 'draft-07' ? 'definitions' : '$defs';
  // One unit per tool, so a warm run recompiles only the tools that changed (tool-validators.ts).
  // Definitions many output schemas hold alike are compiled once, into the `$shared` table.
  const shared = planSharedDefinitions(withOutput.map((tool) => tool.outputSchema), defs);
  const units: ToolValidatorUnit[] = withOutput.map((tool) => {
    const names = toolNames.get(tool.name) as ToolTypeNames;
    const output = names.output as string;
    const entries: ValidatorEntry[] = [{ exportName: names.validateOutput as string, ref: `#/${defs}/${output}`, typeName: output }];
    const stubbed = sharedStubKeys(tool.outputSchema, shared);
    return {
      // Built only when the tool is compiled: a warm run finds it in the unit cache by memoInput.
      get root() {
        const schemas: SchemaObject = {};
        defineOwn(schemas, output, embedAt(withSharedStubs(tool.outputSchema, shared), `/${defs}/${output}`));
        return { [defs]: schemas };
      },
      entries,
      // The schema by its digest (schema/digest.ts): the key stays short, and the schema is hashed once per run.
      memoInput: JSON.stringify([output, names.validateOutput, schemaDigest(tool.outputSchema), ...(stubbed.length > 0 ? [stubbed] : [])]),
      // Checked against the meta-schema when the manifest was loaded: not again (meta-checked.ts).
      ...(isMetaChecked(tool.outputSchema) ? { metaChecked: true } : {}),
    };
  });
  // One TypeScript module, so every build carries it (tsc to an outDir, bundlers, tsx, Deno, Bun).
  const emitted = await emitTypedToolValidators(units, dialect, `./${TYPES_MODULE}.${extension}`, memo, {}, shared);
  return {
    files: [{ path: 'validators.ts', owner: 'generated', format: 'none', content: emitted.ts }],
    warnings: emitted.warnings,
  };
}


function runtimeFiles(sources: Readonly<Record<string, string>>): PlannedFile[] {
  const missing = REQUIRED_RUNTIME.filter((name) => !Object.hasOwn(sources, name));
  if (missing.length > 0) throw new Error(`planClient: runtimeSources lacks ${missing.join(', ')}`);
  return Object.keys(sources)
    .sort()
    .map((name): PlannedFile => {
      if (!RUNTIME_PATH.test(name)) throw new Error(`planClient: unexpected runtime file name ${JSON.stringify(name)}`);
      // Copied byte for byte: src/runtime is kept prettier-clean (test/write/runtime-format.test.ts).
      return { path: `runtime/${name}`, owner: 'generated', format: 'none', content: sources[name] as string };
    });
}
