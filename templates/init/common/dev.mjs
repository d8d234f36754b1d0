// `npm run dev`: regenerates the code whenever an input changes and recompiles it, until Ctrl-C.
// Each watcher is its own Node process, started here directly (no shell in between, so stopping
// this script stops every one of them).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** [the package's script, its arguments] for each watcher. */
const watchers = __WATCHERS__;
const children = watchers.map(([script, ...args]) => spawn(process.execPath, [require.resolve(script), ...args], { stdio: 'inherit' }));
let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
