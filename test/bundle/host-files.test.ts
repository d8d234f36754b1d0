// The files `mcp-gen server` writes for hosts: the MCP Bundle manifest (checked by mcpb's own
// `validate`), server.json (checked against the registry's published schema, vendored in
// schema/registry/), the Dockerfile, and the ledger that lets `mcp-gen check` make them again.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Console } from '../../src/cli/output.js';
import { environmentInputs, MCPB_DEPENDENCIES, mcpbManifest, registryDocument } from '../../src/emit/server/host-files.js';
import type { ServiceModel } from '../../src/model/service-model.js';
import rootPackage from '../../package.json' with { type: 'json' };

const repoRoot = join(import.meta.dirname, '..', '..');
const weatherManifest = join(repoRoot, 'examples', 'weather', 'manifest.yaml');
// The package's bin (its exports map does not list it).
const mcpbCli = join(repoRoot, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');

async function run(...argv: string[]): Promise<{ code: number; err: string[] }> {
  const err: string[] = [];
  const io: Console = { out: () => {}, err: (line) => err.push(line) };
  return { code: await main(argv, io), err };
}

const tempDir = (): Promise<string> => mkdtemp(join(tmpdir(), 'mcp-gen-hosts-'));

/** The registry's schema as published (draft-07, with the formats it names). */
function registryValidator(): (value: unknown) => string[] {
  // Both are CommonJS: under NodeNext the default import is the module object.
  const ajv = new Ajv.default({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(join(repoRoot, 'schema', 'registry', 'server.schema.json'), 'utf8')) as object);
  return (value) => (validate(value) ? [] : (validate.errors ?? []).map((e: { instancePath: string; message?: string }) => `${e.instancePath} ${e.message ?? ''}`));
}

function mcpbValidate(manifestPath: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [mcpbCli, 'validate', manifestPath], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A small model with an `upstream` section naming credentials, as an imported OpenAPI server has. */
function modelWithUpstream(): ServiceModel {
  const model: ServiceModel & { upstream: object } = {
    server: { name: 'github', version: '2.0.0', title: 'GitHub', description: 'x'.repeat(140) },
    protocolVersions: ['2025-11-25'],
    listChanged: false,
    subscribe: false,
    tools: [{ name: 'repos_get', ids: { pascal: 'ReposGet', camel: 'reposGet' }, inputSchema: { type: 'object' }, wire: { name: 'repos_get', title: 'Get a repository' } }],
    resources: [],
    resourceTemplates: [],
    prompts: [],
    source: 'manifest.yaml',
    upstream: {
      baseUrl: 'https://{host}',
      variables: { host: { default: 'api.github.com', env: 'GITHUB_HOST' } },
      auth: { token: { type: 'bearer', env: 'GITHUB_TOKEN' }, basic: { type: 'basic', usernameEnv: 'GH_USER', passwordEnv: 'GH_PASSWORD' } },
    },
  };
  return model;
}

describe('--mcpb', () => {
  it('writes a manifest that mcpb validate accepts, and the scripts that bundle and pack it', async () => {
    const out = join(await tempDir(), 'weather');
    expect((await run('server', weatherManifest, '-o', out, '--mcpb', '--quiet')).code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'mcpb', 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ manifest_version: '0.3', name: 'weather', display_name: 'Weather', version: '1.0.0' });
    expect(manifest['server']).toEqual({ type: 'node', entry_point: 'server/server.mjs', mcp_config: { command: 'node', args: ['${__dirname}/server/server.mjs'] } });
    expect(manifest['tools']).toEqual([
      { name: 'get_weather', description: 'Current weather: Current conditions at a location.' },
      { name: 'get_forecast', description: 'Forecast: Daily highs, lows and conditions for the next days.' },
      { name: 'climate_report', description: 'Climate report: Averages many years of readings for a location; slow, so it runs as a task when the client can.' },
    ]);
    const checked = mcpbValidate(join(out, 'mcpb', 'manifest.json'));
    expect(checked.output).toContain('Manifest schema validation passes');
    expect(checked.status).toBe(0);
    const pkg = JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')) as { scripts: Record<string, string>; devDependencies: Record<string, string> };
    expect(pkg.scripts['pack:mcpb']).toBe('npm run -s bundle && mcpb validate mcpb/manifest.json && mcpb pack mcpb weather.mcpb');
    expect(pkg.devDependencies['@anthropic-ai/mcpb']).toBe(MCPB_DEPENDENCIES['@anthropic-ai/mcpb']);
    expect(rootPackage.devDependencies['@anthropic-ai/mcpb']).toBe(MCPB_DEPENDENCIES['@anthropic-ai/mcpb']);
  });

  it('asks the user for the credentials an upstream section names, and mcpb validate accepts it', async () => {
    const model = modelWithUpstream();
    expect(environmentInputs(model).map((input) => [input.name, input.secret])).toEqual([
      ['GH_PASSWORD', true],
      ['GH_USER', true],
      ['GITHUB_HOST', false],
      ['GITHUB_TOKEN', true],
    ]);
    const manifest = mcpbManifest(model, 'github') as { user_config: Record<string, { sensitive?: boolean }>; server: { mcp_config: { env: Record<string, string> } } };
    expect(manifest.server.mcp_config.env['GITHUB_TOKEN']).toBe('${user_config.github_token}');
    expect(manifest.user_config['github_token']?.sensitive).toBe(true);
    expect(manifest.user_config['github_host']?.sensitive).toBeUndefined();
    const dir = await tempDir();
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
    expect(mcpbValidate(join(dir, 'manifest.json')).status).toBe(0);
  });

  it('a PNG icon given inline goes into the bundle; mcpb validate accepts the manifest', async () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const model = modelWithUpstream();
    model.server.icons = [{ src: 'https://example.com/icon.svg', mimeType: 'image/svg+xml' }, { src: png, mimeType: 'image/png' }];
    const manifest = mcpbManifest(model, 'github') as { icon?: string; _meta?: Record<string, { icon?: string }> };
    expect(manifest.icon).toBe('icon.png');
    expect(manifest._meta?.['dev.mcp-gen']?.icon).toBe(png);
    const dir = await tempDir();
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
    await writeFile(join(dir, 'icon.png'), Buffer.from('iVBORw0KGgo=', 'base64'));
    expect(mcpbValidate(join(dir, 'manifest.json')).status).toBe(0);
    // The registry lists https: icons only.
    const document = registryDocument(model, 'github', { registryName: 'io.github.example/github' }) as { icons?: unknown[] };
    expect(document.icons).toEqual([{ src: 'https://example.com/icon.svg', mimeType: 'image/svg+xml' }]);
    expect(registryValidator()(document)).toEqual([]);
  });

  it('mcpb validate refuses a manifest without what the format requires (the check can fail)', async () => {
    const dir = await tempDir();
    const { author: _author, ...withoutAuthor } = mcpbManifest(modelWithUpstream(), 'github') as Record<string, unknown>;
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(withoutAuthor));
    expect(mcpbValidate(join(dir, 'manifest.json')).status).not.toBe(0);
  });
});

describe('--registry-name', () => {
  const validate = registryValidator();

  it('writes server.json for the npm package, valid against the published schema', async () => {
    const out = join(await tempDir(), 'weather');
    expect((await run('server', weatherManifest, '-o', out, '--registry-name', 'io.github.example/weather', '--quiet')).code).toBe(0);
    const document = JSON.parse(readFileSync(join(out, 'server.json'), 'utf8')) as Record<string, unknown>;
    expect(validate(document)).toEqual([]);
    expect(document).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'io.github.example/weather',
      title: 'Weather',
      description: 'Weather',
      version: '1.0.0',
      packages: [{ registryType: 'npm', identifier: 'weather', version: '1.0.0', transport: { type: 'stdio' } }],
    });
  });

  it('a remote endpoint, upstream credentials and a long description stay valid', () => {
    const model = modelWithUpstream();
    const remote = registryDocument(model, 'github', { registryName: 'io.github.example/github', registryRemote: 'https://mcp.example.com/mcp' }) as Record<string, unknown>;
    expect(validate(remote)).toEqual([]);
    expect(remote['remotes']).toEqual([{ type: 'streamable-http', url: 'https://mcp.example.com/mcp' }]);
    const local = registryDocument(model, 'github', { registryName: 'io.github.example/github' }) as { description: string; packages: { environmentVariables: unknown[] }[] };
    expect(validate(local)).toEqual([]);
    expect(local.description).toHaveLength(100);
    expect(local.packages[0]?.environmentVariables).toContainEqual({ name: 'GITHUB_TOKEN', description: 'auth token', isRequired: true, isSecret: true });
    // The schema itself refuses what the registry refuses: the check can fail.
    expect(validate({ ...local, description: 'x'.repeat(101) })).not.toEqual([]);
  });

  it('a name the registry would refuse is bad input: exit 2, nothing written', async () => {
    const out = join(await tempDir(), 'weather');
    const result = await run('server', weatherManifest, '-o', out, '--registry-name', 'weather');
    expect(result.code).toBe(2);
    expect(result.err[0]).toMatch(/--registry-name must be a registry name, not "weather"/);
    expect(existsSync(out)).toBe(false);
    expect((await run('server', weatherManifest, '-o', out, '--registry-remote', 'https://x.example/mcp')).code).toBe(2);
  });
});

describe('the ledger', () => {
  it('records the host flags: check regenerates the same files and its fix command names them', async () => {
    const out = join(await tempDir(), 'weather');
    expect((await run('server', weatherManifest, '-o', out, '--mcpb', '--registry-name', 'io.github.example/weather', '--dockerfile', '--quiet')).code).toBe(0);
    expect(readFileSync(join(out, 'Dockerfile'), 'utf8')).toContain('CMD ["node", "dist/server.mjs", "--http", "--host", "0.0.0.0", "--port", "3000"]');
    expect((await run('check', out)).code).toBe(0);
    await writeFile(join(out, 'server.json'), '{}\n');
    const stale = await run('check', out);
    expect(stale.code).toBe(1);
    expect(stale.err.join('\n')).toMatch(/--mcpb --registry-name io\.github\.example\/weather --dockerfile/);
  });
});
