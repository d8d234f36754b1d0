// Sits between a client and a stdio server to note the protocol revision they speak:
//   node stdio-tap.mjs <file> <command> [args…]
// passes every byte through unchanged and appends each revision it sees to <file>, one a line:
// what `initialize` agreed on, or what a 2026-07-28 request carries in its _meta.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [file, command, ...args] = process.argv.slice(2);
const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const note = (revision) => typeof revision === 'string' && appendFileSync(file, `${revision}\n`);

/** Reads a copy of the stream line by line; a line that is not JSON is none of its business. */
function watch(stream, look) {
  createInterface({ input: stream }).on('line', (line) => {
    try {
      look(JSON.parse(line));
    } catch {
      // Not a JSON-RPC line: passed on all the same.
    }
  });
}

process.stdin.pipe(server.stdin);
server.stdout.pipe(process.stdout);
watch(process.stdin, (message) => note(message?.params?._meta?.['io.modelcontextprotocol/protocolVersion']));
watch(server.stdout, (message) => note(message?.result?.protocolVersion));
process.stdin.on('end', () => server.stdin.end());
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
