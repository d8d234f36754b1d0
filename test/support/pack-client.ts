/**
 * A `--package` client as its user publishes it: `mcp-gen client <manifest> --package <name>`, then
 * `npm pack`, whose prepack script builds it with the package's own tsc. The apps matrix installs
 * the tarball into its Node and bundler apps, the browser test into a Vite page.
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../client/support.js';

/** Which step failed, with its whole output (callers shorten it as they report). */
export class PackFailure extends Error {
  constructor(
    readonly step: 'mcp-gen client --package' | 'npm pack',
    readonly output: string,
  ) {
    super(`${step} failed:\n${output}`);
  }
}

/**
 * Generates the package into `<dir>/<name>` and packs it into `dir`; the tarball's path. The prepack
 * build's tsc and @types/node resolve from a node_modules above `dir`, as from a workspace's root.
 */
export async function packClient(manifest: string, dir: string, name: string): Promise<string> {
  const source = join(dir, name);
  const generated = await cli(['client', manifest, '-o', source, '--package', name, '--no-version-banner']);
  if (generated.code !== 0) throw new PackFailure('mcp-gen client --package', generated.err);
  const output = await new Promise<string | undefined>((resolve) => {
    const args = ['pack', '--pack-destination', dir, '--no-audit', '--no-fund'];
    execFile('npm', args, { cwd: source, timeout: 180_000 }, (error, stdout, stderr) => resolve(error ? `${stdout}${stderr}${error.message}` : undefined));
  });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (output !== undefined || tarball === undefined) throw new PackFailure('npm pack', output ?? 'no .tgz written');
  return join(dir, tarball);
}
