import { schemaDigest } from '../../schema/digest.js';
import { assertSafeIdentifiers } from '../service-identifiers.js';
import type { ServiceModel } from '../../model/service-model.js';
import type { FileFormat, PlannedFile } from '../../write/planned-file.js';
import { deferredFile } from '../deferred-file.js';
import type { ValidatorEntry } from '../validators/index.js';
import { dialectOf } from '../shared/dialect.js';
import type { CompileUnitsOptions } from '../validators/compile-units.js';
import type { ImportExtension } from '../import-extension.js';
import { typedValidatorModule } from '../validators/declarations.js';
import { emitSplitToolValidators, type CodeShare, type Memo, type ToolModuleUnit } from '../validators/tool-validators.js';
import { importedToolModule, type ModuleTexts, type ValidatorLayout } from '../validators/module-layout.js';
import { planSharedDefinitions, sharedStubKeys, withSharedStubs } from '../validators/shared-defs.js';
import { toolTypeNames, type ToolTypeNames } from '../shared/naming.js';
import { projectFiles, type ServerTarget } from './project-files.js';
import type { HostOptions } from './host-files.js';

export type { ServerTarget } from './project-files.js';
import { defineOwn, type SchemaObject } from '../../schema/keywords.js';
import { embedAt } from '../shared/embed.js';
import { isMetaChecked } from '../../schema/meta-checked.js';
import type { UnitMemo } from '../../printer/format.js';
import { serverFile, servesStateless, toolConstant } from './server-file.js';
import { TOOL_DEFINITIONS_MODULE, toolDefinitionsModule } from './tool-definitions-file.js';
import { TYPES_MODULE, typesFile } from '../types/types-file.js';
import { describe, handlersIndexFile, sectionFiles, toolHandlerFile, toolHandlerPath } from './user-files.js';
import { hasProxiedTools, proxyFile, proxyHandlerFile } from './proxy-file.js';
import { viewsFile } from './views-file.js';

export interface ServerInputs {
  /**
   * The runtime, copied into `generated/runtime/`: every `.ts` under `src/runtime/` (minus
   * `client/`) by its path there, plus
   * `initialize-validators.{js,d.ts}`, `request-validators.{js,d.ts}`, `result-validators.{js,d.ts}` and `stateless-validators.{js,d.ts}`
   * (mcp-gen's generated envelope validators; the last only for servers that serve 2026-07-28).
   * The CLI reads them; emitters never touch the file system.
   */
  runtimeSources: Readonly<Record<string, string>>;
  /** Reuses what an earlier run computed from the same input (the output folder's unit cache). */
  memo?: Memo;
  /** The same for asynchronous steps: types.ts and server.ts are assembled from cached, formatted units. */
  memoAsync?: UnitMemo;
  /** The cache's shared tier: keeps the tools' validator code, which `memo` keeps only by hash. */
  share?: CodeShare;
  /** What relative module specifiers end with (`--import-extension`); `js` by default. */
  importExtension?: ImportExtension;
  /** `--otel`: main.ts turns tracing on and package.json depends on @opentelemetry/api. */
  otel?: boolean;
  /** `web`: main.web.ts, the Web-standard entry, beside main.ts (`--target web`). */
  target?: ServerTarget;
  /** The files for hosts and registries to write (`--mcpb`, `--registry-name`, `--dockerfile`). */
  hosts?: HostOptions;
  /**
   * How the tools' validators are written (module-layout.ts): `js` needs the project's package.json
   * to map VALIDATOR_IMPORTS, which the CLI checks (a package.json it creates has it). `ts` unless given.
   */
  validatorLayout?: ValidatorLayout;
}

export interface ServerPlan {
  files: PlannedFile[];
  /**
   * Things the user should hear about, e.g. a tool that left the manifest but still has a handler.
   * Filled while the writer runs the merge hooks, so print it after `writeOutput`.
   */
  notes: string[];
  /** What ajv warned about while compiling the tools' validators (e.g. an unknown format). */
  warnings: string[];
}

/** Runtime files generated code imports directly; the plan refuses to go on without them. */
const REQUIRED_RUNTIME = [
  'index.ts',
  'api.ts',
  'initialize-validators.js',
  'initialize-validators.d.ts',
  'request-validators.js',
  'request-validators.d.ts',
  'result-validators.js',
  'result-validators.d.ts',
];

/** The envelope validators mcp-gen generated for the runtime (`generated/runtime/`), each a `.js` and its `.d.ts`: copied as one `.ts`. */
const ENVELOPE_VALIDATORS = /^([a-z][a-z0-9-]*-validators)\.js$/;

/**
 * Every runtime file is copied byte for byte (the writer still puts the banner on): the sources are
 * kept prettier-clean (test/write/runtime-format.test.ts), the envelope validators' `.d.ts` were
 * formatted when mcp-gen generated them, and the compiled `.js` validators are laid out by ajv.
 */
const RUNTIME_FORMATS: [RegExp, FileFormat][] = [
  [/^([a-z][a-z0-9-]*\/)*[a-z][a-z0-9-]*\.ts$/, 'none'],
  [/^README\.md$/, 'none'],
];

/**
 * Everything `mcp-gen server` writes:
 * - `generated/` (rewritten on every run): the runtime, `types.ts` (tool, resource and prompt types
 *   and the `Handlers` type), `validators.js`/`.d.ts` (the tools' schemas, ajv standalone) and
 *   `server.ts` (the definition and a typed `createServer`);
 * - user-owned, created once: `handlers/tools/<tool>.ts`, `handlers/index.ts`,
 *   `handlers/{resources,resource-templates,prompts}.ts`, `main.ts`, `package.json`,
 *   `tsconfig.json`, `.gitignore`.
 */
export async function planServer(model: ServiceModel, inputs: ServerInputs): Promise<ServerPlan> {
  assertSafeIdentifiers(model, 'planServer');
  const notes: string[] = [];
  const toolNames = toolTypeNames(model);
  const proxied = hasProxiedTools(model);
  const files: PlannedFile[] = [...runtimeFiles(inputs.runtimeSources, servesStateless(model), model.auth !== undefined, proxied)];
  if (proxied) files.push(proxyFile(model));
  const views = viewsFile(model);
  if (views !== undefined) files.push(views);

  const layout = inputs.validatorLayout ?? 'ts';
  // Started first: with many tools they compile on worker threads while the rest is planned here.
  const validators = model.tools.length > 0 ? validatorFiles(model, toolNames, inputs.memo, { layout, ...(inputs.importExtension ? { importExtension: inputs.importExtension } : {}), ...(inputs.share ? { share: inputs.share } : {}) }) : undefined;
  // types.ts and server.ts are assembled from formatted units already (types-file.ts,
  // server-file.ts): nothing for the writer's prettier.
  const types = typesFile(model, inputs.memoAsync);
  // The tools' entries go to tool-definitions.ts when they share large definitions; server.ts names them then.
  const definitions = toolDefinitionsModule(model.tools, toolConstant, inputs.memoAsync);
  const server = definitions.then((module) => serverFile(model, toolNames, validatorModules(model, layout), inputs.memoAsync, module !== undefined));
  const handlerFile = (tool: ServiceModel['tools'][number]): PlannedFile =>
    tool.http !== undefined ? proxyHandlerFile(tool, toolHandlerPath(tool), describe(tool.wire)) : toolHandlerFile(tool);
  const userFiles = [...model.tools.map(handlerFile), handlersIndexFile(model, notes), ...sectionFiles(model, notes), ...projectFiles(model, inputs.target ?? 'node', inputs.otel === true, inputs.hosts, layout)];
  const [typesContent, serverContent, validatorPlan, definitionsContent] = await Promise.all([types, server, validators, definitions]);

  files.push({ path: `generated/${TYPES_MODULE}.ts`, owner: 'generated', format: 'none', content: typesContent });
  if (validatorPlan) files.push(...validatorPlan.files);
  if (definitionsContent !== undefined) files.push({ path: `generated/${TOOL_DEFINITIONS_MODULE}.ts`, owner: 'generated', format: 'none', content: definitionsContent });
  files.push({ path: 'generated/server.ts', owner: 'generated', format: 'none', content: serverContent }, ...userFiles);
  return { files, notes, warnings: validatorPlan?.warnings ?? [] };
}

/**
 * The tools' input and output schemas, compiled to ajv standalone code one tool at a time (each
 * tool's local `$ref`s rewritten to its own root), so a warm run recompiles only the tools that
 * changed. Each tool's validators are a module of their own, `generated/validators/<tool>.js`,
 * which the server imports on the tool's first call: starting a server parses none of them.
 * `generated/validators.js`/`.d.ts` re-export them all for code that wants them at once.
 */
export async function validatorFiles(
  model: ServiceModel,
  toolNames: Map<string, ToolTypeNames>,
  memo: Memo | undefined,
  options: CompileUnitsOptions & { importExtension?: ImportExtension; share?: CodeShare; layout?: ValidatorLayout } = {},
): Promise<{ files: PlannedFile[]; warnings: string[] }> {
  const dialect = dialectOf(model);
  const defs = dialect === 'draft-07' ? 'definitions' : '$defs';
  // Definitions many tools hold alike are compiled once, into generated/validator-defs.ts.
  const shared = planSharedDefinitions(model.tools.flatMap((t) => (t.outputSchema ? [t.inputSchema, t.outputSchema] : [t.inputSchema])), defs);
  const units: ToolModuleUnit[] = model.tools.map((tool) => {
    const names = toolNames.get(tool.name) as ToolTypeNames;
    const parts: [typeName: string, exportName: string, schema: SchemaObject][] = [[names.input, names.validateInput, tool.inputSchema]];
    if (tool.outputSchema && names.output && names.validateOutput) parts.push([names.output, names.validateOutput, tool.outputSchema]);
    const entries: ValidatorEntry[] = parts.map(([typeName, exportName]) => ({ exportName, ref: `#/${defs}/${typeName}`, typeName }));
    const stubbed = [...new Set(parts.flatMap(([, , schema]) => sharedStubKeys(schema, shared)))].sort();
    // The root embeds each schema under its definition; built only when the tool is compiled (a
    // warm run finds most tools in the unit cache by the schemas as they are).
    const root = (): object => {
      const schemas: SchemaObject = {};
      for (const [typeName, , schema] of parts) defineOwn(schemas, typeName, embedAt(withSharedStubs(schema, shared), `/${defs}/${typeName}`));
      return { [defs]: schemas };
    };
    return {
      get root() {
        return root();
      },
      entries,
      // Each schema by its digest (schema/digest.ts): the key stays short, and the schema is hashed once per run.
      memoInput: JSON.stringify([...parts.map(([typeName, exportName, schema]) => [typeName, exportName, schemaDigest(schema)]), ...(stubbed.length > 0 ? [stubbed] : [])]),
      module: tool.ids.camel,
      // Checked against the meta-schema when the manifest was loaded: not again (meta-checked.ts).
      ...(parts.every(([, , schema]) => isMetaChecked(schema)) ? { metaChecked: true } : {}),
      ...(stubbed.length > 0 ? { sharedStubs: true } : {}),
    };
  });
  const ext = options.importExtension ?? 'js';
  const paths = {
    typesModule: `../${TYPES_MODULE}.${ext}`,
    helpersModule: `../validator-helpers.${ext}`,
    modulesDir: './validators',
    helpersFromIndex: `./validator-helpers.${ext}`,
    sharedModule: `../validator-defs.${ext}`,
    helpersFromShared: `./validator-helpers.${ext}`,
    extension: ext,
  };
  const layout = options.layout ?? 'ts';
  const emitted = await emitSplitToolValidators(units, dialect, { ...paths, layout }, memo, options, shared);
  // Laid out by ajv already: prettier would only make them bigger and slower to write. `ts`:
  // TypeScript modules, which every build carries; `js`: JavaScript beside its declarations,
  // which tsc does not rebuild (module-layout.ts).
  const files: PlannedFile[] = [
    { path: 'generated/validators.ts', owner: 'generated', format: 'none', content: emitted.index },
    ...moduleFiles('generated/validator-helpers', emitted.helpers),
    ...(emitted.shared === undefined ? [] : moduleFiles('generated/validator-defs', emitted.shared)),
  ];
  for (const module of emitted.modules) {
    const base = `generated/validators/${module.module}`;
    const path = `${base}.${module.dts === undefined ? 'ts' : 'js'}`;
    files.push(
      'text' in module
        ? { path, owner: 'generated', format: 'none', content: module.text, contentKey: module.key }
        : deferredFile({ path, owner: 'generated', format: 'none', contentKey: module.key, produce: module.produce }),
    );
    if (module.dts !== undefined) files.push({ path: `${base}.d.ts`, owner: 'generated', format: 'none', content: module.dts });
  }
  return { files, warnings: emitted.warnings };
}

/** A module's files: one TypeScript module, or JavaScript and its declarations. */
function moduleFiles(base: string, texts: ModuleTexts): PlannedFile[] {
  if (texts.dts === undefined) return [{ path: `${base}.ts`, owner: 'generated', format: 'none', content: texts.text }];
  return [
    { path: `${base}.js`, owner: 'generated', format: 'none', content: texts.text },
    { path: `${base}.d.ts`, owner: 'generated', format: 'none', content: texts.dts },
  ];
}

/** Each tool's validator module, as server.ts imports it on the tool's first call. */
function validatorModules(model: ServiceModel, layout: ValidatorLayout): Map<string, string> {
  return new Map(model.tools.map((tool) => [tool.name, layout === 'js' ? importedToolModule(tool.ids.camel) : `./validators/${tool.ids.camel}.js`]));
}

function withoutOwnBanner(text: string): string {
  return text.startsWith('/* @generated by mcp-gen') ? text.slice(text.indexOf('\n') + 1) : text;
}

const STATELESS_VALIDATORS = /^stateless-validators\.(js|d\.ts)$/;
/** The resource-server checks (`runtime/auth/`), copied only for a manifest with `auth`: they import jose. */
const AUTH_RUNTIME = /^auth\//;
/** The proxy of `http` bindings (`runtime/proxy/`), copied only for a manifest that has some. */
const PROXY_RUNTIME = /^proxy\//;

function runtimeFiles(sources: Readonly<Record<string, string>>, stateless: boolean, auth: boolean, proxy: boolean): PlannedFile[] {
  const missing = [...REQUIRED_RUNTIME, ...(stateless ? ['stateless-validators.js', 'stateless-validators.d.ts'] : [])].filter(
    (name) => !Object.hasOwn(sources, name),
  );
  if (missing.length > 0) throw new Error(`planServer: runtimeSources lacks ${missing.join(', ')}`);
  return Object.keys(sources)
    // A server that does not serve 2026-07-28 has no use for its validators.
    .filter((name) => stateless || !STATELESS_VALIDATORS.test(name))
    .filter((name) => auth || !AUTH_RUNTIME.test(name))
    .filter((name) => proxy || !PROXY_RUNTIME.test(name))
    // Each envelope validator module is written once, as TypeScript, from its .js and .d.ts.
    .filter((name) => !name.endsWith('-validators.d.ts'))
    .map((name) => {
      const envelope = ENVELOPE_VALIDATORS.exec(name);
      if (envelope) {
        // Each carries the banner of mcp-gen's own build; the writer puts the user's on the result.
        const content = typedValidatorModule(withoutOwnBanner(sources[name] as string), withoutOwnBanner(sources[`${envelope[1] as string}.d.ts`] as string));
        return { name: `${envelope[1] as string}.ts`, content };
      }
      return { name, content: sources[name] as string };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ name, content }) => {
      const format = RUNTIME_FORMATS.find(([pattern]) => pattern.test(name))?.[1];
      if (format === undefined) throw new Error(`planServer: unexpected runtime file name ${JSON.stringify(name)}`);
      return { path: `generated/runtime/${name}`, owner: 'generated', format, content };
    });
}
