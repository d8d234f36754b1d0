// The floor over HTTP: a bare node:http server with no framework and no validation. POST /mcp with
// one JSON-RPC message: it reads the body, builds the result and answers JSON. `--stateless` skips
// sessions; otherwise initialize issues a random session id and every later request must name one.
//   node bench/floor/http-server.mjs --port 0 [--stateless]      prints "listening on <url>" on stderr
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getWeather, search } from '../lib/handlers.mjs';
import { benchDataDir } from '../lib/paths.mjs';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, stateless: { type: 'boolean', default: false } } });
const { tools } = JSON.parse(readFileSync(path.join(benchDataDir, 'workload.tools.json'), 'utf8'));
const handlers = { get_weather: getWeather, search };
const sessions = new Set();

function answer(request) {
  const { method, params } = request;
  switch (method) {
    case 'initialize':
      return { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bench-floor', version: '1.0.0' } };
    case 'tools/list':
      return { tools };
    case 'tools/call': {
      const structuredContent = handlers[params.name](params.arguments);
      return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
    }
    default:
      return {};
  }
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const headers = { 'content-type': 'application/json' };
    if (!values.stateless) {
      if (message.method === 'initialize') {
        const id = randomUUID();
        sessions.add(id);
        headers['mcp-session-id'] = id;
      } else if (!sessions.has(req.headers['mcp-session-id'])) {
        res.writeHead(404, headers).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}');
        return;
      }
    }
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    res.writeHead(200, headers).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: answer(message) }));
  });
});
server.listen(Number(values.port), '127.0.0.1', () => {
  process.stderr.write(`listening on http://127.0.0.1:${server.address().port}/mcp\n`);
});
