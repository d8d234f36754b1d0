// examples/client-app, built and run as the README says: the typed client calls the weather
// example server over stdio (spawning it) and over Streamable HTTP, with the server's real answers.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from './support.js';

it('builds and calls the weather server over stdio and HTTP', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', 'examples/weather/server', 'examples/client-app'], { cwd: repoRoot, stdio: 'pipe' });
  const output = execFileSync(process.execPath, [join(repoRoot, 'examples/client-app/build/main.js')], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 60_000,
  });
  for (const transport of ['stdio', 'http']) {
    // The example server speaks both eras; the client negotiates the newest, 2026-07-28, where the
    // server names itself in server/discover's _meta.
    const section = output.slice(output.indexOf(`${transport}: connected to weather 1.0.0 (protocol 2026-07-28)`));
    expect(section, output).toMatch(/^\S+: connected/);
    expect(section).toMatch(/now in Lisbon: -?\d+(\.\d+)?° celsius, (sunny|cloudy|rain|snow|fog|wind), humidity \d+%/);
    expect(section).toContain('resource weather://stations/lis');
    expect(section).toMatch(/full result: \d+ content block\(s\) beside \w+ in Porto/);
    expect(section).toContain('prompts: plan_outing');
    expect(section).toContain('refused as expected: Tool get_weather failed: Invalid arguments for tool get_weather');
  }
}, 120_000);
