/**
 * What hosts and registries install a server from, written on request: the MCP Bundle manifest
 * (`--mcpb`: `mcpb/manifest.json`, packed with the bundled server by `npm run pack:mcpb`), the MCP
 * Registry's `server.json` (`--registry-name`) and a Dockerfile (`--dockerfile`).
 */
import type { ServiceModel } from '../../model/service-model.js';
import type { PlannedFile } from '../../write/planned-file.js';

/** The tool that validates and packs bundles (a devDependency of a `--mcpb` project; kept equal to mcp-gen's own by a test). */
export const MCPB_DEPENDENCIES = { '@anthropic-ai/mcpb': '2.1.2' } as const;

/** The registry schema release `server.json` follows (vendored in `schema/registry/`). */
export const REGISTRY_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** What `mcp-gen server` writes for hosts, besides the project. */
export interface HostOptions {
  mcpb?: boolean;
  /** The server's registry name (`io.github.owner/name`); writes `server.json`. */
  registryName?: string;
  /** The public URL of a deployed Streamable HTTP endpoint: a `remotes` entry instead of the npm package. */
  registryRemote?: string;
  dockerfile?: boolean;
}

/** An environment variable the server reads that a host should ask its user for. */
export interface EnvironmentInput {
  name: string;
  description: string;
  secret: boolean;
}

/**
 * The environment a stdio server reads from the user: the variables the manifest names for
 * upstream credentials and settings (an `upstream` section: `env`, `…Env` keys). The runtime's own
 * variables (`MCP_STATE_SECRET`, `MCP_REDIS_URL`, `MCP_AUTH_RESOURCE`) and the token check's are
 * HTTP settings: a host that starts the server over stdio has no use for them.
 */
export function environmentInputs(model: ServiceModel): EnvironmentInput[] {
  const inputs = new Map<string, EnvironmentInput>();
  const upstream = (model as { upstream?: unknown }).upstream;
  const visit = (value: unknown, where: string, secret: boolean): void => {
    if (value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner === 'string' && /^(env|[a-z]+Env)$/.test(key) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(inner) && !inputs.has(inner)) {
        inputs.set(inner, { name: inner, description: `${where}${key === 'env' ? '' : ` (${key.slice(0, -3)})`}`, secret });
      } else visit(inner, where === '' ? key : `${where} ${key}`, secret || key === 'auth');
    }
  };
  visit(upstream, '', false);
  return [...inputs.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const serverTitle = (model: ServiceModel): string => model.server.title ?? model.server.name;
const description = (model: ServiceModel): string => model.server.description ?? serverTitle(model);
const toolText = (wire: { [key: string]: unknown }): string | undefined => {
  const text = [wire['title'], wire['description']].filter((part): part is string => typeof part === 'string' && part !== '');
  return text.length === 0 ? undefined : text.join(': ');
};

/** A PNG icon given inline (`data:image/png;base64,…`), the one kind a bundle can carry without a download. */
function inlinePngIcon(model: ServiceModel): string | undefined {
  const icon = model.server.icons?.find((entry) => typeof entry['src'] === 'string' && /^data:image\/png;base64,[A-Za-z0-9+/=]+$/.test(entry['src']));
  return icon === undefined ? undefined : (icon['src'] as string);
}

/**
 * `mcpb/manifest.json` (MCPB manifest 0.3). The host runs `node server/server.mjs` over stdio from the
 * unpacked folder; `npm run bundle` puts the bundled server there, and the icon beside it when the
 * manifest gives one inline.
 */
export function mcpbManifest(model: ServiceModel, packageName: string): object {
  const inputs = environmentInputs(model);
  const icon = inlinePngIcon(model);
  const userConfig = Object.fromEntries(
    inputs.map((input) => [input.name.toLowerCase(), { type: 'string', title: input.name, description: input.description, required: true, ...(input.secret ? { sensitive: true } : {}) }]),
  );
  return {
    manifest_version: '0.3',
    name: packageName,
    display_name: serverTitle(model),
    version: model.server.version,
    description: description(model),
    author: { name: serverTitle(model) },
    ...(model.server.websiteUrl === undefined ? {} : { homepage: model.server.websiteUrl }),
    ...(icon === undefined ? {} : { icon: 'icon.png' }),
    server: {
      type: 'node',
      entry_point: 'server/server.mjs',
      mcp_config: {
        command: 'node',
        args: ['${__dirname}/server/server.mjs'],
        ...(inputs.length === 0 ? {} : { env: Object.fromEntries(inputs.map((input) => [input.name, `\${user_config.${input.name.toLowerCase()}}`])) }),
      },
    },
    ...(model.tools.length === 0 ? {} : { tools: model.tools.map((tool) => ({ name: tool.name, ...withText(toolText(tool.wire)) })) }),
    ...(model.prompts.length === 0 ? {} : { prompts_generated: true }),
    compatibility: { runtimes: { node: '>=20' } },
    ...(inputs.length === 0 ? {} : { user_config: userConfig }),
    // Where `npm run bundle` finds the icon's bytes (generated/bundle.mjs writes mcpb/icon.png).
    ...(icon === undefined ? {} : { _meta: { 'dev.mcp-gen': { icon } } }),
  };
}

const withText = (text: string | undefined): { description?: string } => (text === undefined ? {} : { description: text });

/** `server.json` for the MCP Registry: the npm package over stdio, or the deployed endpoint. */
export function registryDocument(model: ServiceModel, packageName: string, options: Required<Pick<HostOptions, 'registryName'>> & Pick<HostOptions, 'registryRemote'>): object {
  const text = description(model);
  const inputs = environmentInputs(model);
  const icons = (model.server.icons ?? []).filter((icon) => typeof icon['src'] === 'string' && /^https:\/\//.test(icon['src']) && (icon['src'] as string).length <= 255);
  return {
    $schema: REGISTRY_SCHEMA,
    name: options.registryName,
    ...(model.server.title === undefined ? {} : { title: model.server.title.slice(0, 100) }),
    // The registry takes at most 100 characters; the full text stays in the manifest.
    description: text.length <= 100 ? text : `${text.slice(0, 99)}…`,
    version: model.server.version,
    ...(model.server.websiteUrl === undefined ? {} : { websiteUrl: model.server.websiteUrl }),
    ...(icons.length === 0 ? {} : { icons }),
    ...(options.registryRemote !== undefined
      ? { remotes: [{ type: 'streamable-http', url: options.registryRemote }] }
      : {
          packages: [
            {
              registryType: 'npm',
              identifier: packageName,
              version: model.server.version,
              transport: { type: 'stdio' },
              ...(inputs.length === 0
                ? {}
                : { environmentVariables: inputs.map((input) => ({ name: input.name, description: input.description, isRequired: true, ...(input.secret ? { isSecret: true } : {}) })) }),
            },
          ],
        }),
  };
}

/** A Dockerfile for the HTTP server, built from the bundle: user-owned, written once. */
const DOCKERFILE = `# Built by: docker build -t SERVER_NAME . && docker run -p 3000:3000 SERVER_NAME
# The image serves Streamable HTTP on port 3000 at /mcp. It binds to 0.0.0.0 inside the container,
# which turns the Host check off unless allowedHosts is set: put a proxy or gateway in front (see
# mcp-gen's docs/deploy.md, "Docker").
FROM node:20-slim AS build
WORKDIR /app
COPY package*.json ./
# package-lock.json makes the install repeatable: commit it.
RUN npm ci
COPY . .
RUN npm run bundle

FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
CMD ["node", "dist/server.mjs", "--http", "--host", "0.0.0.0", "--port", "3000"]
`;

/** The files a run writes for hosts, per the options; `packageName` is the project's npm name. */
export function hostFiles(model: ServiceModel, options: HostOptions, packageName: string): PlannedFile[] {
  const files: PlannedFile[] = [];
  if (options.mcpb === true) {
    files.push({ path: 'mcpb/manifest.json', owner: 'generated', format: 'json', content: JSON.stringify(mcpbManifest(model, packageName), null, 2) });
  }
  if (options.registryName !== undefined) {
    const document = registryDocument(model, packageName, { registryName: options.registryName, ...(options.registryRemote === undefined ? {} : { registryRemote: options.registryRemote }) });
    files.push({ path: 'server.json', owner: 'generated', format: 'json', content: JSON.stringify(document, null, 2) });
  }
  if (options.dockerfile === true) {
    files.push(
      { path: 'Dockerfile', owner: 'user', format: 'none', content: DOCKERFILE.replace(/SERVER_NAME/g, packageName) },
      { path: '.dockerignore', owner: 'user', format: 'none', content: 'node_modules\nbuild\ndist\nmcpb/server\n*.mcpb\n.mcp-gen-cache.json\n' },
    );
  }
  return files;
}
