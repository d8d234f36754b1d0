// The MCP Inspector's CLI mode (`mcp-inspector --cli`): one process per request, as a person or a
// script uses it. It cannot cancel one call; killing the process during a call is the close case.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const launcher = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/clients/launcher/build/index.js');
// Its catalog and state folder (~/.mcp-inspector), kept in the run's temporary root.
const home = mkdtempSync(join(tmpdir(), 'inspector-home-'));

export default {
  cannotCancel: () => 'one process per request: it has no cancel (killing it is the close case)',
  async connect(transport, target) {
    const server = transport === 'stdio' ? [target.command, ...target.args] : [target.url, '--transport', transport];
    const children = new Set();
    const run = (args) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [launcher, '--cli', ...server, ...args], { env: { ...process.env, HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
        children.add(child);
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk) => (out += chunk));
        child.stderr.on('data', (chunk) => (err += chunk));
        child.on('close', (code, signal) => {
          children.delete(child);
          // Exit 5: the tool answered isError (the result is still printed).
          if (code === 0 || code === 5) resolve(JSON.parse(out));
          else reject(new Error(`inspector exited ${code ?? signal}: ${err || out}`));
        });
      });
    return {
      listTools: async () => (await run(['--method', 'tools/list'])).tools.map((tool) => tool.name),
      // key=value pairs: the inspector reads numbers as numbers, anything else as a string.
      call: (name, args) => run(['--method', 'tools/call', '--tool-name', name, '--tool-arg', ...Object.entries(args).map(([key, value]) => `${key}=${value}`)]),
      close: async () => {
        for (const child of children) child.kill();
      },
    };
  },
};
