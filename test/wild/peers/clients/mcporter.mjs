// mcporter's runtime API (createRuntime): one server definition, no config file read.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from 'mcporter';

const root = mkdtempSync(join(tmpdir(), 'mcporter-'));

export default {
  cannotCancel: () => 'its callTool takes no signal (a timeout only)',
  async connect(transport, target) {
    const command = transport === 'stdio' ? { kind: 'stdio', command: target.command, args: target.args, cwd: root } : { kind: 'http', url: new URL(target.url) };
    const runtime = await createRuntime({ rootDir: root, configPath: join(root, 'none.json'), servers: [{ name: 'wild', command }] });
    return {
      listTools: async () => (await runtime.listTools('wild')).map((tool) => tool.name),
      call: (name, args) => runtime.callTool('wild', name, { args }),
      close: () => runtime.close(),
    };
  },
};
