import type { ServiceModel } from '../../model/service-model.js';
import type { PlannedFile } from '../../write/planned-file.js';
import { render } from './templates.js';
import { BUNDLE_DEPENDENCIES, BUNDLE_ENTRY, bundleFile } from './bundle-files.js';
import { hostFiles, MCPB_DEPENDENCIES, type HostOptions } from './host-files.js';
import { VALIDATOR_IMPORTS, type ValidatorLayout } from '../validators/module-layout.js';

/**
 * Versions the generated project builds with: the ones mcp-gen itself is built and tested with
 * (a test keeps them equal to mcp-gen's own devDependencies).
 */
export const BUILD_DEPENDENCIES = { '@types/node': '20.19.43', typescript: '5.9.3' } as const;

/** What a server whose manifest has `auth` runs with: jose verifies JWTs (kept equal to mcp-gen's devDependency by a test). */
export const AUTH_DEPENDENCIES = { jose: '6.2.18' } as const;

/** What a server generated with `--otel` runs with (kept equal to mcp-gen's devDependency by a test). */
export const OTEL_DEPENDENCIES = { '@opentelemetry/api': '1.9.1' } as const;

/** An npm package name from the server name: lowercase, URL-safe, or `mcp-server` when nothing is left. */
export function packageName(serverName: string): string {
  const name = serverName
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[-._~]+|[-._~]+$/g, '')
    .slice(0, 200);
  return name === '' ? 'mcp-server' : name;
}

/** Where the generated project runs: Node only, or also any runtime that calls `fetch(Request)`. */
export type ServerTarget = 'node' | 'web';

/** The tsconfig.json of a generated project (a server; `mcp-gen init --client` uses it too). */
export const PROJECT_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
    noUnusedLocals: true,
    skipLibCheck: true,
    types: ['node'],
    rootDir: '.',
    outDir: 'build',
    incremental: true,
    tsBuildInfoFile: 'build/.tsbuildinfo',
  },
  include: ['**/*.ts'],
  exclude: ['build', 'node_modules'],
} as const;

/**
 * package.json, tsconfig.json, .gitignore, main.ts and the bundle recipe: the project around the
 * generated code (and main.web.ts for the web target); with host options, the MCP Bundle manifest, server.json and a Dockerfile too.
 */
export function projectFiles(model: ServiceModel, target: ServerTarget = 'node', otel = false, hosts: HostOptions = {}, layout: ValidatorLayout = 'ts'): PlannedFile[] {
  const version = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?$/.test(model.server.version) ? model.server.version : '0.1.0';
  const packageJson = {
    name: packageName(model.server.name),
    version,
    private: true,
    type: 'module',
    scripts: {
      build: 'tsc -b',
      start: 'tsc -b && node build/main.js',
      'start:http': 'tsc -b && node build/main.js --http',
      // One ES module (plus the chunks it loads on first use), esbuild's: generated/bundle.mjs.
      bundle: `tsc -b && node generated/bundle.mjs`,
      ...(hosts.mcpb === true ? { 'pack:mcpb': `npm run -s bundle && mcpb validate mcpb/manifest.json && mcpb pack mcpb ${packageName(model.server.name)}.mcpb` } : {}),
    },
    // The tools' validators as JavaScript, found from the sources and the build alike (module-layout.ts).
    ...(layout === 'js' ? { imports: { [VALIDATOR_IMPORTS.key]: VALIDATOR_IMPORTS.target } } : {}),
    engines: { node: '>=20' },
    ...(model.auth === undefined && !otel ? {} : { dependencies: { ...(model.auth === undefined ? {} : AUTH_DEPENDENCIES), ...(otel ? OTEL_DEPENDENCIES : {}) } }),
    devDependencies: { ...BUILD_DEPENDENCIES, ...BUNDLE_DEPENDENCIES, ...(hosts.mcpb === true ? MCPB_DEPENDENCIES : {}) },
  };
  const serverTitle = model.server.title ?? model.server.name;
  const mainText = (): string =>
    render('main.ts.hbs', {
      auth: model.auth !== undefined,
      otel,
      hook: model.auth !== undefined && 'hook' in model.auth.verifier,
      doc: [
        `Starts the MCP server ${JSON.stringify(serverTitle)}.`,
        '',
        'Serves stdio by default; with `--http` it serves Streamable HTTP at',
        '`http://<host>:<port>/mcp` (`--port`, default 3000; `--host`, default 127.0.0.1).',
        'With `--redis <url>` (or `MCP_REDIS_URL`) several processes share sessions and resumable',
        'streams through Redis (`npm install redis@6.3.1` first); give them one `MCP_STATE_SECRET`.',
        ...(otel ? ['Every request is traced with OpenTelemetry (docs/tracing.md in mcp-gen): register an SDK', 'before this starts, e.g. `node --import ./telemetry.js build/main.js`.'] : []),
        ...(model.auth === undefined
          ? []
          : [
              'Over HTTP every request needs an OAuth access token for this server (manifest `auth`);',
              '`--resource <url>` (or `MCP_AUTH_RESOURCE`) names the endpoint when it is not `auth.resource`.',
              'To try it locally: `npx mcp-gen dev-issuer --scope "…"` prints a token, and `--auth http://127.0.0.1:9400`',
              '(or `MCP_AUTH_ISSUER`) makes this server trust that issuer instead of the manifest\'s.',
            ]),
      ].join('\n'),
    });
  const webText = (): string =>
    render('main.web.ts.hbs', {
      auth: model.auth !== undefined,
      otel,
      hook: model.auth !== undefined && 'hook' in model.auth.verifier,
      doc: [
        `The MCP server ${JSON.stringify(serverTitle)} as a Web-standard handler, \`fetch(Request) → Promise<Response>\`,`,
        'for runtimes that serve one (both protocol eras at `/mcp`; docs/deploy.md has each platform):',
        '- Bun: `bun main.web.ts`; Deno: `deno serve --allow-env --host 127.0.0.1 main.web.ts` (both serve the default export,',
        '  on loopback: for Bun `MCP_HOST` names another host and `PORT` the port, for Deno `--host` and `--port`);',
        '- Cloudflare Workers: `main = "main.web.ts"` and `compatibility_flags = ["nodejs_compat"]` in wrangler.toml;',
        "- Next.js (App Router): `export { fetch as GET, fetch as POST, fetch as DELETE, fetch as OPTIONS } from '…/main.web';`",
        '  in `app/mcp/route.ts`; Hono: `app.all(\'/mcp\', (c) => fetch(c.req.raw))`.',
        'Set `MCP_ALLOWED_HOSTS` to the host names it is reached by, and `MCP_STATE_SECRET` where several',
        'processes or isolates serve it.',
        ...(model.auth === undefined
          ? []
          : [
              'Every request needs an OAuth access token for this server (manifest `auth`);',
              '`MCP_AUTH_RESOURCE` names the endpoint when it is not `auth.resource`, and `MCP_AUTH_ISSUER`',
              "an issuer to trust instead of the manifest's (e.g. `mcp-gen dev-issuer`'s, to try it locally).",
            ]),
      ].join('\n'),
    });
  let main: string | undefined;
  let web: string | undefined;
  return [
    { path: 'package.json', owner: 'user', format: 'json', content: JSON.stringify(packageJson, null, 2) },
    { path: 'tsconfig.json', owner: 'user', format: 'json', content: JSON.stringify(PROJECT_TSCONFIG, null, 2) },
    // The unit cache only makes the next run faster; the ledger and the generated files are the record.
    { path: '.gitignore', owner: 'user', format: 'none', content: `build/\n${BUNDLE_ENTRY.split('/')[0] as string}/\nnode_modules/\n.mcp-gen-cache.json\nmcpb/server/\nmcpb/icon.png\n*.mcpb\n` },
    {
      path: 'main.ts',
      owner: 'user',
      format: 'typescript',
      // Rendered when read: only for a file the writer creates.
      get content(): string {
        return (main ??= mainText());
      },
    },
    ...(target === 'web'
      ? [
          {
            path: 'main.web.ts',
            owner: 'user' as const,
            format: 'typescript' as const,
            get content(): string {
              return (web ??= webText());
            },
          },
        ]
      : []),
    ...(model.auth !== undefined && 'hook' in model.auth.verifier
      ? [{ path: 'handlers/verify-token.ts', owner: 'user' as const, format: 'typescript' as const, get content(): string { return render('verify-token.ts.hbs', {}); } }]
      : []),
    bundleFile(),
    ...hostFiles(model, hosts, packageName(model.server.name)),
  ];
}
