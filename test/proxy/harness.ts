/**
 * Generates a server from a manifest with `http` bindings into a temporary folder, runs it in this
 * process on a loopback port (its handlers are the generated proxies, as written), and connects the
 * official SDK client to it.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadModel, plan, tempDir, write } from '../server/support.js';

export interface ServedProxy {
  dir: string;
  /** The MCP endpoint. */
  url: URL;
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<ToolAnswer>;
  close(): Promise<void>;
}

export interface ToolAnswer {
  isError?: boolean;
  structuredContent?: unknown;
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
}

export async function generate(manifest: string): Promise<string> {
  const dir = tempDir('proxy');
  await write(dir, await plan(await loadModel(manifest)), manifest);
  return dir;
}

export async function serve(dir: string): Promise<ServedProxy> {
  const generated = (await import(pathToFileURL(join(dir, 'generated', 'server.ts')).href)) as {
    createServer: (handlers: unknown) => { listenHttp(options: { port: number }): Promise<{ url: string; close(): Promise<void> }> };
  };
  const { handlers } = (await import(pathToFileURL(join(dir, 'handlers', 'index.ts')).href)) as { handlers: unknown };
  const listener = await generated.createServer(handlers).listenHttp({ port: 0 });
  const client = new Client({ name: 'proxy-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
  return {
    dir,
    url: new URL(listener.url),
    client,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolAnswer,
    close: async () => {
      await client.close();
      await listener.close();
    },
  };
}
