/**
 * `mcp-gen client --package <name>`: the generated client as a publishable npm package. The client's
 * files go under `src/`, and beside them: `package.json` (ESM `exports` with `types`, `browser`,
 * `node`, `import`, `default`; `prepack` builds), `tsconfig.json` (tsc builds `src/` to `dist/`, .js
 * and .d.ts, so a consumer needs no TypeScript settings of its own), a README with one example call
 * per tool, and `api-snapshot.json`, the server surface this version was made from (what the next
 * regeneration is diffed against, see src/pipeline/client-package.ts). Plans files; never touches the disk.
 */
import type { ServiceModel, ToolModel } from '../../model/service-model.js';
import { markdownCodeBlock, markdownText, terminalText } from '../../printer/escape.js';
import type { PlannedFile } from '../../write/planned-file.js';
import { OAUTH_DEPENDENCY } from './index.js';

/** Pinned as mcp-gen's own package.json pins them: the package's build needs exactly these. */
const PACKAGE_BUILD_DEPENDENCIES = { '@types/node': '20.19.43', typescript: '5.9.3' } as const;

/** The folder the client's files go to, and the one tsc builds them into. */
const SOURCE_DIR = 'src';
const BUILD_DIR = 'dist';

export interface PackageOptions {
  /** A valid npm package name (checked by the CLI). */
  name: string;
  /** The version to write (the CLI decides it: kept, bumped, or --package-version). */
  version: string;
  /** The package.json on disk: every field the generator does not own is kept, in its order. */
  existing?: { [key: string]: unknown };
  /** `--auth`: the OAuth module is exported as `./auth`, and its dependency is a dependency. */
  auth: boolean;
  /** An example value for a tool's input (src/samples/tool-examples.ts); undefined: none found. */
  example: (tool: ToolModel) => unknown;
}

/**
 * The package's entry points: subpath → module under `src/` (without `.ts`). Kept in this one
 * place so the layout can change in one spot; today the browser and Node take the same modules,
 * and the `browser` field (browserSwaps) changes what those modules load.
 */
function packageEntries(files: readonly PlannedFile[], auth: boolean): { subpath: string; browser: string; node: string }[] {
  const entries = [{ subpath: '.', browser: 'client', node: 'client' }];
  if (auth && files.some((f) => f.path === 'runtime/client/auth/index.ts')) {
    entries.push({ subpath: './auth', browser: 'runtime/client/auth/index', node: 'runtime/client/auth/index' });
  }
  return entries;
}

/**
 * The `browser` field: Node's module → the browser's, for every pair whose browser module the
 * package has (the CLI adds them: connect-browser.ts speaks HTTP on fetch and has no stdio;
 * oauth-module-absent.ts leaves the Node-only sign-in out). Bundlers building for the web (Vite,
 * esbuild with `--platform=browser`, webpack's web targets) read it; Node, Deno and Bun do not.
 */
const BROWSER_SWAPS: readonly [node: string, browser: string][] = [
  ['runtime/client/connect', 'runtime/client/connect-browser'],
  ['runtime/client/oauth-module', 'runtime/client/oauth-module-absent'],
];

function browserSwaps(files: readonly PlannedFile[]): { [key: string]: string } | undefined {
  const present = BROWSER_SWAPS.filter(([node, browser]) => files.some((f) => f.path === `${node}.ts`) && files.some((f) => f.path === `${browser}.ts`));
  if (present.length === 0) return undefined;
  return Object.fromEntries(present.map(([node, browser]) => [`./${BUILD_DIR}/${node}.js`, `./${BUILD_DIR}/${browser}.js`]));
}

/** `exports` in the order resolvers read conditions: types first, then the platform, then the format. */
function exportsMap(entries: ReturnType<typeof packageEntries>): { [key: string]: unknown } {
  const map: { [key: string]: unknown } = {};
  const js = (module: string): string => `./${BUILD_DIR}/${module}.js`;
  for (const { subpath, browser, node } of entries) {
    map[subpath] = { types: `./${BUILD_DIR}/${node}.d.ts`, browser: js(browser), node: js(node), import: js(node), default: js(node) };
  }
  map['./package.json'] = './package.json';
  return map;
}

/** The client's planned files moved under `src/`, plus the package's own files. */
export function planPackage(model: ServiceModel, clientFiles: readonly PlannedFile[], options: PackageOptions): PlannedFile[] {
  // The `--auth` client's package.json (naming oauth4webapi) is replaced by the package's own.
  const moved = clientFiles.filter((f) => f.path !== 'package.json').map((f) => ({ ...f, path: `${SOURCE_DIR}/${f.path}` }));
  const entries = packageEntries(clientFiles, options.auth);
  const json = (path: string, value: unknown): PlannedFile => ({ path, owner: 'generated', format: 'none', content: `${JSON.stringify(value, null, 2)}\n` });
  return [
    ...moved,
    json('package.json', packageJson(model, options, entries, browserSwaps(clientFiles))),
    json('tsconfig.json', BUILD_TSCONFIG),
    { path: 'README.md', owner: 'generated', format: 'none', content: packageReadme(model, options) },
    json(API_SNAPSHOT, apiSnapshot(model)),
    // Yours once written: what npm builds and packs stays out of the repository.
    { path: '.gitignore', owner: 'user', format: 'none', content: `node_modules/\n${BUILD_DIR}/\n*.tgz\n` },
  ];
}

/** The surface this version was generated from, as an mcp-gen snapshot (`mcp-gen diff` reads it). */
export const API_SNAPSHOT = 'api-snapshot.json';

/**
 * tsc's settings for the package build: NodeNext ESM, declarations beside the JavaScript, and the
 * strictness mcp-gen's own tests compile the runtime under. `allowJs` carries JavaScript modules
 * of the client (ajv's standalone validators) into dist/ with the rest.
 */
const BUILD_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    allowJs: true,
    declaration: true,
    skipLibCheck: true,
    rootDir: SOURCE_DIR,
    outDir: BUILD_DIR,
  },
  include: [SOURCE_DIR],
};

/**
 * Fields the generator owns, in the order written; every other field of the existing package.json
 * (description, license, repository, keywords, …, and `version`, which the CLI passes in) is kept.
 * `scripts`, `dependencies` and `devDependencies` are merged key by key, the generator's keys winning.
 */
function packageJson(model: ServiceModel, options: PackageOptions, entries: ReturnType<typeof packageEntries>, swaps: { [key: string]: string } | undefined): { [key: string]: unknown } {
  const existing = options.existing ?? {};
  const merged = (field: string, ours: { [key: string]: string }): { [key: string]: unknown } => {
    const theirs = existing[field];
    return { ...(typeof theirs === 'object' && theirs !== null && !Array.isArray(theirs) ? theirs : {}), ...ours };
  };
  const main = entries[0] as (typeof entries)[number];
  const server = model.server.title ?? model.server.name;
  const owned: { [key: string]: unknown } = {
    name: options.name,
    version: options.version,
    description: existing['description'] ?? `A typed MCP client of ${server}, generated by mcp-gen.`,
    type: 'module',
    exports: exportsMap(entries),
    main: `./${BUILD_DIR}/${main.node}.js`,
    types: `./${BUILD_DIR}/${main.node}.d.ts`,
    ...(swaps ? { browser: swaps } : {}),
    files: [BUILD_DIR],
    sideEffects: false,
    engines: { node: '>=20' },
    scripts: merged('scripts', { build: 'tsc -p tsconfig.json', prepack: 'npm run build' }),
    ...(options.auth ? { dependencies: merged('dependencies', { ...OAUTH_DEPENDENCY }) } : {}),
    devDependencies: merged('devDependencies', { ...PACKAGE_BUILD_DEPENDENCIES }),
  };
  for (const [key, value] of Object.entries(existing)) if (!(key in owned)) owned[key] = value;
  return owned;
}

/** The tools/list surface, prompts, resources and templates as `mcp-gen diff` compares them. */
function apiSnapshot(model: ServiceModel): { [key: string]: unknown } {
  const { name, version, title } = model.server;
  return {
    mcpGenSnapshot: 1,
    protocolVersion: model.protocolVersions[0] ?? '',
    serverInfo: { name, version, ...(title !== undefined ? { title } : {}) },
    capabilities: {},
    tools: model.tools.map((t) => ({ ...t.wire, inputSchema: t.inputSchema, ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}) })),
    prompts: model.prompts.map((p) => p.wire),
    resources: model.resources.map((r) => r.wire),
    resourceTemplates: model.resourceTemplates.map((t) => t.wire),
  };
}

/** The README: install, connect (Node, bundler, browser, CommonJS), one example call per tool, releasing. */
function packageReadme(model: ServiceModel, options: PackageOptions): string {
  const name = options.name;
  const server = markdownText(model.server.title ?? model.server.name);
  const lines: string[] = [
    `# ${name}`,
    '',
    `A typed, validating client of the MCP server **${server}**, generated by mcp-gen. Every tool is a`,
    'method whose arguments and result are typed from the server\'s schemas; results are checked against',
    'the output schema before they reach you. No runtime dependencies' + (options.auth ? ' but `oauth4webapi` (the OAuth sign-in).' : '.'),
    '',
    '## Install and connect',
    '',
    markdownCodeBlock(`npm install ${name}`, 'sh'),
    markdownCodeBlock(
      [
        `import { connect } from '${name}';`,
        '',
        "// Streamable HTTP (Node, a bundler app, or a browser page):",
        "const client = await connect({ url: 'http://127.0.0.1:3000/mcp' });",
        '// or stdio (Node): the client starts the server and stops it on close()',
        "// const client = await connect({ command: 'node', args: ['server.js'] });",
        '',
        '// … calls, see below …',
        'await client.close();',
      ].join('\n'),
      'ts',
    ),
    'The package is ESM with its own `.d.ts` files: plain Node (`"type": "module"` or `.mjs`), TypeScript',
    'under any `moduleResolution` (`nodenext`, `bundler`), esbuild, Vite, webpack, Bun and Deno take it as',
    `it is. A CommonJS app loads it with \`const { connect } = await import('${name}');\` (Node 20.19 and`,
    'later also allow `require()` of it).',
    '',
    '## Tools',
    '',
  ];
  if (model.tools.length === 0) lines.push('The server lists no tools.', '');
  for (const tool of model.tools) lines.push(...toolSection(tool, options.example(tool)));
  lines.push(
    '## Releasing',
    '',
    '`npm pack` and `npm publish` build first (`prepack` runs `npm run build`: tsc, `src/` to `dist/`).',
    'Everything here is generated except the fields of `package.json` you add or change: regenerating',
    'keeps them and the `version`. When the server changed, regenerating compares `api-snapshot.json`',
    '(the surface this version was made from) with the new one, as `mcp-gen diff` does, and bumps the',
    'version: major for a breaking change, minor for a compatible one, patch for documentation only',
    '(under 1.0.0: minor for breaking, patch otherwise). See what changed with',
    '`mcp-gen diff api-snapshot.json <manifest | snapshot | server>`.',
    '',
  );
  return lines.join('\n');
}

function toolSection(tool: ToolModel, example: unknown): string[] {
  const title = typeof tool.wire['title'] === 'string' ? ` (${markdownText(tool.wire['title'])})` : '';
  const description = typeof tool.wire['description'] === 'string' ? markdownText(tool.wire['description']) : '';
  const args = example === undefined ? '/* arguments */' : exampleLiteral(example);
  const empty = example !== undefined && JSON.stringify(example) === '{}';
  const call = `const result = await client.tools.${tool.ids.camel}(${empty ? '' : args});`;
  const typed = tool.outputSchema ? `// result: ${tool.ids.pascal}Output, checked against the output schema` : '// result: the whole CallToolResult (the tool declares no output schema)';
  return [`### \`${terminalText(tool.name).replace(/[`\n\t]/g, ' ')}\`${title}`, '', ...(description ? [description, ''] : []), markdownCodeBlock(`${call}\n${typed}`, 'ts')];
}

/** A JSON value as a short TypeScript literal: `{ location: "Lisbon", days: 3 }` (keys quoted only when they must be). */
function exampleLiteral(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(exampleLiteral).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value).map(([key, v]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${exampleLiteral(v)}`);
    return members.length === 0 ? '{}' : `{ ${members.join(', ')} }`;
  }
  return JSON.stringify(value);
}
