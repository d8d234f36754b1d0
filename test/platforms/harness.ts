/**
 * The platform tests' machinery: the pinned runtimes (scripts/platforms.mjs installs them from the
 * npm registry), ONE weather server generated with the web target and built with tsc, the weather
 * client generated once, and Next.js built once; each platform then serves the same built handler.
 * Everything lives in test/platforms/.work/ (git-ignored), where hono and next resolve from
 * test/platforms/node_modules as an app's own dependencies would.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildNext,
  buildWebServer,
  deployBun,
  deployDeno,
  deployHono,
  deployWorkerd,
  ensurePlatforms,
  startNext,
  WORK_DIR,
  WEB_ENTRY,
  type Deployment,
} from '../../scripts/platforms.mjs';
import { parseDocument, type YAMLMap, type YAMLSeq } from 'yaml';
import { cli, repoRoot } from '../client/support.js';

export type Platform = 'bun' | 'deno' | 'workerd' | 'hono' | 'next';
export const PLATFORMS: readonly Platform[] = ['bun', 'deno', 'workerd', 'hono', 'next'];

const WEATHER = join(repoRoot, 'examples', 'weather');
export const SERVER_DIR = join(WORK_DIR, 'weather');
export const CLIENT_DIR = join(WORK_DIR, 'client');
const NEXT_DIR = join(WORK_DIR, 'next');
/** The built web entry: its default export is `{ fetch }`. */
export const HANDLER_MODULE = join(SERVER_DIR, 'build', WEB_ENTRY);

/** Generates, builds and prepares everything the platforms share; throws with the failing step's output. */
export async function prepare(): Promise<void> {
  ensurePlatforms({ quiet: true });
  // Only this file's folders: the conformance runs keep theirs beside them.
  for (const dir of [CLIENT_DIR, NEXT_DIR]) rmSync(dir, { recursive: true, force: true });
  mkdirSync(WORK_DIR, { recursive: true });
  const manifest = writeUnprotectedManifest();
  // The example's implemented handlers in place of the generated skeletons, as a user's would be.
  buildWebServer(manifest, join(WEATHER, 'server', 'handlers'), SERVER_DIR);
  const client = await cli(['client', manifest, '-o', CLIENT_DIR, '--no-version-banner', '--quiet']);
  if (client.code !== 0) throw new Error(`mcp-gen client failed:\n${client.err}`);
  buildNext(HANDLER_MODULE, NEXT_DIR);
}

/**
 * The weather manifest without its `auth` section and the tool `scopes` that need it: with `auth`
 * the web entry is a resource server (every request needs a token from the manifest's issuer),
 * which the tests of the auth runtime cover; here the platforms serve the tools themselves.
 */
function writeUnprotectedManifest(): string {
  const document = parseDocument(readFileSync(join(WEATHER, 'manifest.yaml'), 'utf8'));
  document.delete('auth');
  const tools = document.get('tools') as YAMLSeq<YAMLMap>;
  for (const tool of tools.items) tool.delete('scopes');
  const path = join(WORK_DIR, 'weather.yaml');
  writeFileSync(path, document.toString());
  return path;
}

/** Serves the built handler on `platform`. */
export function deploy(platform: Platform): Promise<Deployment> {
  const dir = join(WORK_DIR, `deploy-${platform}`);
  switch (platform) {
    case 'bun':
      return deployBun(HANDLER_MODULE, dir);
    case 'deno':
      return deployDeno(HANDLER_MODULE, dir);
    case 'workerd':
      return deployWorkerd(HANDLER_MODULE, dir);
    case 'hono':
      return deployHono(HANDLER_MODULE, dir);
    case 'next':
      return startNext(NEXT_DIR);
  }
}
