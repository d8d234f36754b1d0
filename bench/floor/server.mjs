// The floor: a hand-written MCP server over stdio with no framework and no validation. It parses
// each newline-delimited JSON-RPC message, builds the result and JSON.stringifies the response,
// one write per response. Everything a real server does, nothing more.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getWeather, search } from '../lib/handlers.mjs';
import { benchDataDir } from '../lib/paths.mjs';

const { tools } = JSON.parse(readFileSync(path.join(benchDataDir, 'workload.tools.json'), 'utf8'));
const handlers = { get_weather: getWeather, search };

function send(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

function answer(request) {
  const { method, params } = request;
  switch (method) {
    case 'initialize':
      return {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'bench-floor', version: '1.0.0' },
      };
    case 'ping':
      return {};
    case 'tools/list':
      return { tools };
    case 'tools/call': {
      const handler = handlers[params.name];
      if (handler === undefined) return undefined;
      const structuredContent = handler(params.arguments);
      return {
        content: [{ type: 'text', text: JSON.stringify(structuredContent) }],
        structuredContent,
      };
    }
    default:
      return undefined;
  }
}

function handle(line) {
  const message = JSON.parse(line);
  if (message.id === undefined) return; // notifications need no answer
  const result = answer(message);
  if (result === undefined) {
    send({
      jsonrpc: '2.0',
      id: message.id,
      error: { code: -32601, message: 'Unknown method or tool' },
    });
  } else {
    send({ jsonrpc: '2.0', id: message.id, result });
  }
}

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let newline;
  while ((newline = pending.indexOf('\n')) !== -1) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    if (line.trim() !== '') handle(line);
  }
});
process.stdin.on('end', () => process.exit(0));
