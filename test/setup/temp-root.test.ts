// The run's temporary root (test/setup/temp-root.ts) reaches test files and the processes they start.
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('the test run\'s temporary root', () => {
  it('is os.tmpdir() in a test file and in a child process, with the cache folder inside it', () => {
    expect(basename(tmpdir())).toMatch(/^mcp-gen-tests-/);
    const child = execFileSync(process.execPath, ['-e', 'process.stdout.write(require("node:os").tmpdir())'], { encoding: 'utf8' });
    expect(child).toBe(tmpdir());
    if (process.env['MCP_GEN_CACHE_DIR'] !== undefined && dirname(process.env['MCP_GEN_CACHE_DIR']) === tmpdir()) {
      expect(basename(process.env['MCP_GEN_CACHE_DIR'])).toBe('mcp-gen-cache');
    }
  });
});
