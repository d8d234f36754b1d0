// A bystander of the wild suite: a plain Streamable HTTP client (2025-06-18, fetch only) that
// keeps a session of its own open while a real client closes during a call, then calls `add`.
async function post(url, session, message) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
  if (session) headers['mcp-session-id'] = session;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(message) });
  const text = await response.text();
  if (!response.ok && response.status !== 202) throw new Error(`HTTP ${response.status}: ${text.slice(0, 200)}`);
  if (message.id === undefined) return { response };
  // A JSON body, or an SSE stream whose data lines carry the answer.
  const bodies = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => JSON.parse(line.slice(5)))
    : [JSON.parse(text)];
  const answer = bodies.find((body) => body.id === message.id);
  if (answer === undefined) throw new Error(`no answer to ${message.method} in ${text.slice(0, 200)}`);
  return { response, answer };
}

export async function bystander(url) {
  const init = await post(url, undefined, {
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'wild-bystander', version: '1.0.0' } },
  });
  const session = init.response.headers.get('mcp-session-id') ?? undefined;
  await post(url, session, { jsonrpc: '2.0', method: 'notifications/initialized' });
  let next = 2;
  return {
    async add(a, b) {
      const { answer } = await post(url, session, { jsonrpc: '2.0', id: next++, method: 'tools/call', params: { name: 'add', arguments: { a, b } } });
      if (answer.error) throw new Error(`bystander: ${answer.error.message}`);
      return answer.result.structuredContent.sum;
    },
    async close() {
      if (session) await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } });
    },
  };
}
