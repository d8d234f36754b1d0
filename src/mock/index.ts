/**
 * `mcp-gen mock`: a server shaped like the manifest (or a snapshot of a live server) that answers
 * every tool with values generated from its outputSchema, for clients built before the server and
 * for tests. It is the generated server's runtime (src/runtime) with a handler set made from the
 * model, so both protocol eras, both transports and the input checks are the real server's.
 *
 * From tests: `import { startMock } from 'mcp-gen/mock'`.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';
import { capabilities, completionDefaults, servesStateless } from '../emit/server/server-file.js';
import { loadManifest } from '../pipeline/manifest.js';
import type { ServiceModel } from '../model/service-model.js';
import type { ServerDefinition, ServerOptions, ToolBinding, Validator, ValidatorTable } from '../runtime/api.js';
import { createServer, type McpServer } from '../runtime/index.js';
import { loadFixtures, type Fixtures } from './fixtures.js';
import { mockHandlers } from './handlers.js';
import { compileToolValidators, type ToolValidators } from './validators.js';
import { sampleValue, SampleError } from '../samples/generate.js';
import { listenMock, type MockAuthState } from './dev-auth.js';

export { loadFixtures, type Fixtures, type ToolFixture } from './fixtures.js';
export type { MockAuthState } from './dev-auth.js';

/** The mcp-gen package root (two levels up from both src/mock and dist/mock). */
const PACKAGE_ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)));

/** The envelope validators mcp-gen ships for its runtime (generated/runtime/), loaded from the package. */
async function runtimeValidators(name: 'initialize' | 'request' | 'result' | 'stateless'): Promise<ValidatorTable> {
  const url = pathToFileURL(resolve(PACKAGE_ROOT, 'generated', 'runtime', `${name}-validators.js`)).href;
  const module = (await import(url)) as Record<string, ValidatorTable>;
  return module[`${name}Validators`] as ValidatorTable;
}

/** `initialize`'s envelope validator, which has a module of its own (the one a start loads). */
async function initializeValidator(): Promise<Validator<unknown>> {
  const validate = (await runtimeValidators('initialize'))['initialize'];
  if (validate === undefined) throw new Error('generated/runtime/initialize-validators.js has no initialize validator');
  return validate;
}

export interface MockServerOptions {
  model: ServiceModel;
  seed: string | number;
  /** A fixtures file (YAML or JSON); its problems throw an InputError with positions. */
  fixtures?: string;
  serverOptions?: ServerOptions;
}

/** The mock as a runtime server, not yet serving: `serveStdio()` or `listenHttp(…)` starts it. */
export async function createMockServer(options: MockServerOptions): Promise<McpServer> {
  const { model, seed } = options;
  const validators = compileToolValidators(model);
  const fixtures: Fixtures = options.fixtures === undefined ? new Map() : await loadFixtures(options.fixtures, model, validators);
  const toolBindings: Record<string, ToolBinding> = {};
  for (const tool of model.tools) {
    const compiled = validators.get(tool.name);
    if (!compiled) continue;
    const binding: ToolBinding = compiled.output ? { name: tool.name, validateInput: compiled.input, validateOutput: compiled.output } : { name: tool.name, validateInput: compiled.input };
    Object.defineProperty(toolBindings, tool.name, { value: binding, enumerable: true });
  }
  const { name, version, title, instructions } = model.server;
  const defaults = completionDefaults(model);
  const definition: ServerDefinition = {
    serverInfo: title === undefined ? { name, version } : { name, version, title },
    ...(instructions !== undefined ? { instructions } : {}),
    protocolVersions: model.protocolVersions,
    capabilities: capabilities(model),
    tools: model.tools.map((t) => t.wire),
    toolBindings,
    resources: [...model.resources, ...(model.views ?? [])].map((r) => r.wire),
    resourceTemplates: model.resourceTemplates.map((t) => t.wire),
    prompts: model.prompts.map((p) => p.wire),
    // The manifest's enums, exactly as the generated server is given them (its completion rules).
    ...(defaults !== undefined ? { completionDefaults: defaults } : {}),
    initializeValidator: await initializeValidator(),
    requestValidators: () => runtimeValidators('request'),
    resultValidators: () => runtimeValidators('result'),
    ...(servesStateless(model) ? { statelessValidators: () => runtimeValidators('stateless') } : {}),
  };
  warnUnsatisfiable(model, validators, seed, options.serverOptions?.logger ?? ((line) => process.stderr.write(`${line}\n`)));
  return createServer(definition, mockHandlers(model, validators, seed, fixtures), options.serverOptions ?? {});
}

/**
 * Says at start-up which tools' outputSchemas no generated value satisfied (their calls will be
 * tool errors naming the pointer), rather than letting the first call find out.
 */
function warnUnsatisfiable(model: ServiceModel, validators: ReadonlyMap<string, ToolValidators>, seed: string | number, log: (line: string) => void): void {
  for (const tool of model.tools) {
    const validate = validators.get(tool.name)?.output;
    if (!validate || !tool.outputSchema) continue;
    try {
      sampleValue({ schema: tool.outputSchema, seed, path: 'mcp-gen mock start-up', validate, label: `tool ${tool.name} (outputSchema)` });
    } catch (error) {
      if (!(error instanceof SampleError)) throw error;
      log(`warning: ${error.message}`);
    }
  }
}

export interface StartMockOptions {
  /** Path of the manifest (YAML or JSON). */
  manifest: string;
  /** Same seed, same answers; default 0. */
  seed?: string | number;
  /** Path of a fixtures file. */
  fixtures?: string;
  transport: 'http' | 'stdio';
  /** HTTP: the port (default 0: any free one) and host (default 127.0.0.1). */
  port?: number;
  host?: string;
  /** HTTP, a manifest with `auth`: require the development token given back in `auth.token`. */
  enforceAuth?: boolean;
}

/** A running HTTP mock. */
export interface HttpMock {
  url: string;
  /** For a manifest with `auth`: whether it is enforced, and then the token to send. */
  auth?: MockAuthState;
  close(): Promise<void>;
}
/** How to start a stdio mock: give these to a stdio client transport. */
export interface StdioMock {
  command: string;
  args: string[];
}

/**
 * Starts a mock for tests. HTTP: the mock runs in this process and resolves with its URL. stdio: the
 * manifest and fixtures are checked here (so mistakes surface in the test), and the command line
 * that serves it is returned, for a client to spawn.
 */
export async function startMock(options: StartMockOptions & { transport: 'http' }): Promise<HttpMock>;
export async function startMock(options: StartMockOptions & { transport: 'stdio' }): Promise<StdioMock>;
export async function startMock(options: StartMockOptions): Promise<HttpMock | StdioMock>;
export async function startMock(options: StartMockOptions): Promise<HttpMock | StdioMock> {
  const seed = options.seed ?? 0;
  if (options.enforceAuth && options.transport !== 'http') throw new Error('enforceAuth needs transport: http (MCP authorization is an HTTP matter)');
  const { model } = await loadManifest(options.manifest);
  const server = await createMockServer({ model, seed, ...(options.fixtures !== undefined ? { fixtures: options.fixtures } : {}), serverOptions: { logger: () => {} } });
  if (options.transport === 'http') {
    const { listener, auth } = await listenMock(server, model, { port: options.port ?? 0, host: options.host ?? '127.0.0.1', enforceAuth: options.enforceAuth === true, log: () => {} });
    return { url: listener.url, ...(auth !== undefined ? { auth } : {}), close: () => listener.close() };
  }
  const args = [resolve(PACKAGE_ROOT, 'bin', 'mcp-gen.js'), 'mock', resolve(options.manifest), '--seed', String(seed)];
  if (options.fixtures !== undefined) args.push('--fixtures', resolve(options.fixtures));
  return { command: process.execPath, args };
}
