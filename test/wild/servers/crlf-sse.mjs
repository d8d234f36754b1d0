// A tiny Streamable HTTP server (2025-06-18, no sessions) that answers every request with an SSE
// stream whose lines end in CRLF, written a few bytes at a time: every CR ends a chunk (its LF
// starts the next), multi-byte characters are cut, and the JSON spans several `data:` lines, so a
// parser that ends an event at a lone CR delivers half a message. One tool, `echo`. Prints
// "listening on <url>" on stderr.
import { createServer } from 'node:http';

const REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26'];
const tools = [
  {
    name: 'echo',
    description: 'Echoes the text (the answer carries “smart quotes” and an emoji 🌍, split across chunks).',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    outputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
];

function answer(message) {
  const { id, method, params } = message;
  if (method === 'initialize') {
    const asked = params?.protocolVersion;
    const protocolVersion = REVISIONS.includes(asked) ? asked : '2025-06-18';
    return { jsonrpc: '2.0', id, result: { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'wild-crlf-sse', version: '1.0.0' } } };
  }
  if (method === 'ping') return { jsonrpc: '2.0', id, result: {} };
  if (method === 'tools/list') return { jsonrpc: '2.0', id, result: { tools } };
  if (method === 'tools/call' && params?.name === 'echo' && typeof params.arguments?.text === 'string') {
    const text = `“${params.arguments.text}” 🌍`;
    return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], structuredContent: { text } } };
  }
  if (method === 'tools/call') return { jsonrpc: '2.0', id, error: { code: -32602, message: 'unknown tool or bad arguments' } };
  return { jsonrpc: '2.0', id, error: { code: -32601, message: `method not found: ${method}` } };
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 1));

/** Writes the event cut after every CR and every 3 bytes, one write each, each after a pause so none are merged. */
async function writeInPieces(res, event) {
  for (const piece of event.split(/(?<=\r)/)) {
    const bytes = Buffer.from(piece, 'utf8');
    for (let at = 0; at < bytes.length; at += 3) {
      res.write(bytes.subarray(at, at + 3));
      await pause();
    }
  }
}

/** The message as an SSE event: one `data:` line per line of its indented JSON, CRLF after each. */
const event = (message) => `: wild\r\nid: 1\r\nevent: message\r\n${JSON.stringify(message, null, 1).split('\n').map((line) => `data: ${line}\r\n`).join('')}\r\n`;

const server = createServer(async (req, res) => {
  req.socket.setNoDelay(true);
  if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
  let body = '';
  for await (const chunk of req) body += chunk;
  let message;
  try {
    message = JSON.parse(body);
  } catch {
    return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }));
  }
  if (message.id === undefined) return void res.writeHead(202).end();
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  // A comment line and an event id first, as real servers send them.
  await writeInPieces(res, event(answer(message)));
  res.end();
});
server.listen(0, '127.0.0.1', () => process.stderr.write(`listening on http://127.0.0.1:${server.address().port}/mcp\n`));
