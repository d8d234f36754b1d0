/**
 * View bindings from a live server and from a snapshot of one (`mcp-gen client --from-url … --view`,
 * `--from-snapshot … --view`): the server is read as a host that shows views reads it, so the
 * app-only tools and each tool's `_meta.ui` are there and the bindings are the manifest's own; the
 * output keeps the server's answers beside it, so `mcp-gen check` checks it offline like a live client.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type HttpMock } from '../../src/mock/index.js';
import { cli, repoRoot } from '../client/support.js';
import { tempDir } from '../server/support.js';

const manifest = join(repoRoot, 'test/fixtures/apps-ui/weather-views/manifest.yaml');
const VIEW = 'ui://weather/forecast';
const FILES = ['view.ts', 'types.ts', 'validators.ts', 'bridge.ts', 'view-object.ts'];
const dir = tempDir('apps-ui-view-live');
let mock: HttpMock;

/** A generated file without its banner line (which names the command that made it). */
const body = (folder: string, file: string): string => readFileSync(join(dir, folder, file), 'utf8').replace(/^.*\n/, '');

beforeAll(async () => {
  mock = await startMock({ manifest, transport: 'http' });
  for (const args of [
    ['client', manifest, '--view', VIEW, '-o', join(dir, 'from-manifest')],
    ['client', '--from-url', mock.url, '--view', VIEW, '-o', join(dir, 'live'), '--save-snapshot', join(dir, 'snapshot.json')],
    ['client', '--from-snapshot', join(dir, 'snapshot.json'), '--view', VIEW, '-o', join(dir, 'from-snapshot')],
  ]) {
    const made = await cli(args);
    expect(made.code, made.err).toBe(0);
  }
}, 120_000);
afterAll(() => mock?.close());

describe('view bindings of a live server', () => {
  it.each(['live', 'from-snapshot'])('%s: the same bindings as from the manifest, app-only tools included', (folder) => {
    for (const file of FILES) expect(body(folder, file), `${folder}/${file}`).toBe(body('from-manifest', file));
    expect(readFileSync(join(dir, folder, 'view.ts'), 'utf8')).toContain('refreshForecast');
  });

  it('mcp-gen check: current offline (the answers are kept beside it), stale when a binding is edited', async () => {
    const current = await cli(['check', join(dir, 'live')]);
    expect(current.code, current.err).toBe(0);
    writeFileSync(join(dir, 'live', 'view.ts'), `${readFileSync(join(dir, 'live', 'view.ts'), 'utf8')}// edited\n`);
    const stale = await cli(['check', join(dir, 'live')]);
    expect(stale.code).toBe(1);
    expect(stale.err).toMatch(/stale: .*live\/view\.ts/);
    expect(stale.err).toMatch(/fix with: mcp-gen client --from-url http:\/\/127\.0\.0\.1:\d+\/mcp -o .*live --view ui:\/\/weather\/forecast$/m);
  });
});
