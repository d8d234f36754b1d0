/**
 * What `mcp-gen server` adds for a manifest with `auth`, and that a manifest without it gets none
 * of it: no runtime/auth/, no jose, no authSettings, the same main.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUTH_DEPENDENCIES } from '../../src/emit/server/project-files.js';
import type { ServerPlan } from '../../src/emit/server/index.js';
import { loadModel, plan, repoRoot } from '../server/support.js';

const file = (p: ServerPlan, path: string): string | undefined => p.files.find((f) => f.path === path)?.content;

describe('a manifest with auth', async () => {
  const model = await loadModel(join(repoRoot, 'test/fixtures/auth/manifest.yaml'));
  const planned = await plan(model);

  it('gets runtime/auth/, authSettings with the per-tool scopes, jose and the wiring in main.ts', () => {
    expect(planned.files.filter((f) => f.path.startsWith('generated/runtime/auth/')).map((f) => f.path)).toContain('generated/runtime/auth/index.ts');
    const server = file(planned, 'generated/server.ts')!;
    expect(server).toContain('export const authSettings: AuthSettings');
    // The settings are one JSON.parse of a string literal (however prettier lays it out): evaluate it.
    const settings = /export const authSettings: AuthSettings = (JSON\.parse\([\s\S]*?\));\n/.exec(server);
    expect(settings).not.toBeNull();
    expect((new Function(`return ${settings![1]}`)() as { toolScopes: unknown }).toolScopes).toEqual({ get_forecast: ['weather:read'], set_alert: ['weather:read', 'weather:write'], report: ['weather:read'] });
    expect(JSON.parse(file(planned, 'package.json')!).dependencies).toEqual({ jose: '6.2.18' });
    const main = file(planned, 'main.ts')!;
    expect(main).toContain("await import('./generated/runtime/auth/index.js')");
    expect(main).toContain('auth,');
    expect(file(planned, 'handlers/verify-token.ts')).toBeUndefined();
  });

  it('jose is pinned to the version mcp-gen itself runs and tests with', () => {
    // A dependency of mcp-gen (`mcp-gen mock` verifies tokens with it), not only a devDependency.
    const own = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(own.dependencies['jose']).toBe(AUTH_DEPENDENCIES.jose);
  });

  it('a hook verifier gets a user-owned handlers/verify-token.ts that refuses until written, and main.ts passes it', async () => {
    const hooked = await plan({ ...model, auth: { ...model.auth!, verifier: { hook: true } } });
    const hook = hooked.files.find((f) => f.path === 'handlers/verify-token.ts');
    expect(hook?.owner).toBe('user');
    expect(hook?.content).toContain('return undefined;');
    expect(file(hooked, 'main.ts')).toContain("import { verifyToken } from './handlers/verify-token.js';");
  });
});

describe('a manifest without auth', async () => {
  const model = await loadModel(join(repoRoot, 'test/fixtures/server/hostile/manifest.yaml'));
  const planned = await plan(model);

  it('gets no runtime/auth/, no jose, no authSettings and no auth in main.ts', () => {
    expect(planned.files.filter((f) => f.path.includes('/auth/'))).toEqual([]);
    expect(JSON.parse(file(planned, 'package.json')!)).not.toHaveProperty('dependencies');
    expect(file(planned, 'generated/server.ts')).not.toContain('auth');
    expect(file(planned, 'main.ts')).not.toMatch(/auth/i);
  });

  // Byte for byte the output it got before: the hostile, no-output and resources-prompts goldens
  // (test/server/golden.test.ts) were not regenerated for this feature and still pass.
});
