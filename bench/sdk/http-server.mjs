// The official SDK 1.x over Streamable HTTP, as its documentation sets it up on node:http: with
// sessions, one StreamableHTTPServerTransport (JSON responses) per session, kept in a map; with
// `--stateless`, a fresh McpServer and transport for every request (sessionIdGenerator undefined).
//   node bench/sdk/http-server.mjs --port 0 [--stateless]      prints "listening on <url>" on stderr
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createWorkloadServer } from './tools.mjs';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, stateless: { type: 'boolean', default: false } } });
const transports = new Map();

function readJson(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
  });
}

const server = createServer(async (req, res) => {
  const body = await readJson(req);
  if (values.stateless) {
    const mcp = createWorkloadServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
    return;
  }
  const sessionId = req.headers['mcp-session-id'];
  let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
  if (transport === undefined && isInitializeRequest(body)) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    await createWorkloadServer().connect(transport);
  }
  if (transport === undefined) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}');
    return;
  }
  await transport.handleRequest(req, res, body);
});
server.listen(Number(values.port), '127.0.0.1', () => {
  process.stderr.write(`listening on http://127.0.0.1:${server.address().port}/mcp\n`);
});
