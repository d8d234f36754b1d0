#!/usr/bin/env node
// Does the generated server keep anything per HTTP request? RSS alone cannot tell (V8 grows its heap
// between collections), so this runs the bench server in-process, sends 100k tools/call over 16
// keep-alive connections in blocks of 25k, forces two GCs after each block and prints the live heap.
//   npm run -s gen:examples && npx tsc -p bench/server/tsconfig.json && node --expose-gc bench/http-heap.mjs [session|stateless]
import { Agent, request } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './lib/paths.mjs';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const built = (file) => import(pathToFileURL(path.join(repoRoot, 'bench', 'server', 'build', file)).href);
const { createServer } = await built('generated/server.js');
const { handlers } = await built('handlers/index.js');
const mode = process.argv[2] ?? 'session';
const listener = await createServer(handlers, { logger: () => undefined }).listenHttp({ port: 0 });
const url = new URL(listener.url);
const agent = new Agent({ keepAlive: true, maxSockets: 16 });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function post(body, extra = {}) {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { ...headers, ...extra, 'content-length': Buffer.byteLength(text) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

if (mode === 'session') {
  const init = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'heap', version: '1' } } });
  headers['mcp-session-id'] = init['mcp-session-id'];
}
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
let id = 1;
const call = () =>
  mode === 'session'
    ? post({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'get_weather', arguments: { location: 'Oslo' } } })
    : post(
        { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'get_weather', arguments: { location: 'Oslo' }, _meta: meta } },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_weather' },
      );
const heap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
const start = heap();
console.log(`${mode}: live heap after GC, start ${start.toFixed(2)} MiB`);
for (let block = 1; block <= 4; block++) {
  let sent = 0;
  await Promise.all(Array.from({ length: 16 }, async () => { while (sent < 25_000) { sent++; await call(); } }));
  console.log(`  after ${block * 25}k calls: ${heap().toFixed(2)} MiB`);
}
agent.destroy();
await listener.close();
