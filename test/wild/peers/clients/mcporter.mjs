// mcporter's runtime API (createRuntime): one server definition, no config file read.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from 'mcporter';

const root = mkdtempSync(join(tmpdir(), 'mcporter-'));

export default {
  // Its callTool takes no signal: a call is given up on by its timeout. Over stdio a timed-out call
  // restarts the server process, so the handler that was cancelled cannot be asked about after.
  cancelsByTimeout: true,
  cannotCancel: (transport) => (transport === 'stdio' ? 'a timed-out call restarts its stdio server (the cancelled call’s process is gone)' : undefined),
  async connect(transport, target) {
    const command = transport === 'stdio' ? { kind: 'stdio', command: target.command, args: target.args, cwd: root } : { kind: 'http', url: new URL(target.url) };
    const runtime = await createRuntime({ rootDir: root, configPath: join(root, 'none.json'), servers: [{ name: 'wild', command }] });
    return {
      listTools: async () => (await runtime.listTools('wild')).map((tool) => tool.name),
      call: (name, args, options = {}) => runtime.callTool('wild', name, { args, timeoutMs: options.timeoutMs }),
      close: () => runtime.close(),
    };
  },
};
