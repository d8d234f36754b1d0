// Vitest global setup. Tests make temporary folders (manifests, outputs, caches) with
// os.tmpdir(); many are not removed by the test that made them. So that a run leaves nothing
// behind, every test file, and every process a test starts, gets one fresh root folder as its
// TMPDIR, removed when the run ends. mcp-gen's cache folder (the shared packs of the manifests
// tests generate from) goes there too, unless MCP_GEN_CACHE_DIR is set. MCP_GEN_KEEP_TEST_TMP=1
// keeps the root to look at after a failure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function tempRoot(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'mcp-gen-tests-'));
  // Set before any test worker starts: workers and the processes they spawn inherit the environment.
  process.env['TMPDIR'] = root;
  process.env['MCP_GEN_CACHE_DIR'] ??= join(root, 'mcp-gen-cache');
  return () => {
    if (process.env['MCP_GEN_KEEP_TEST_TMP'] === '1') console.log(`test temporary folders kept in ${root}`);
    else rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
