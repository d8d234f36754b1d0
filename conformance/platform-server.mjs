/**
 * The conformance example served by its web handler on another platform (run-server.mjs
 * `--platform`): generated with `--target web` into test/platforms/.work/conformance (git-ignored),
 * built with tsc, and deployed with scripts/platforms.mjs, which installs the pinned runtimes.
 */
import { join } from 'node:path';
import { buildWebServer, deployBun, deployDeno, deployHono, deployWorkerd, ensurePlatforms, WORK_DIR } from '../scripts/platforms.mjs';
import { ROOT } from './harness.mjs';

const DEPLOY = { bun: deployBun, deno: deployDeno, workerd: deployWorkerd, hono: deployHono };

export async function serveOnPlatform(platform) {
  const deploy = DEPLOY[platform];
  if (deploy === undefined) {
    console.error(`--platform must be one of ${Object.keys(DEPLOY).join(', ')}`);
    process.exit(2);
  }
  ensurePlatforms();
  const example = join(ROOT, 'examples', 'conformance');
  const outDir = join(WORK_DIR, 'conformance');
  const handler = buildWebServer(join(example, 'manifest.yaml'), join(example, 'server', 'handlers'), outDir);
  const deployment = await deploy(handler, join(WORK_DIR, `conformance-${platform}`));
  return { url: deployment.url, log: deployment.output, stop: deployment.stop };
}
