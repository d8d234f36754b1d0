// `npm run dev`: regenerates the code whenever an input changes and recompiles it, until Ctrl-C.
// Each watcher is its own process; this script starts them together and stops them together.
import { spawn } from 'node:child_process';

const commands = __COMMANDS__;
const children = commands.map((command) => spawn(command, { shell: true, stdio: 'inherit' }));
let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
for (const child of children) child.on('exit', (code) => stop(code ?? 1));
