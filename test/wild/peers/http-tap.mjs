// A pass-through proxy in front of an HTTP server that notes the protocol revision each request
// names in its MCP-Protocol-Version header. Streams are piped as they come; a client that goes
// away closes the upstream request too, so closing a stream reaches the server as it would.
import { createServer, request } from 'node:http';

export async function httpTap(target) {
  const upstreamUrl = new URL(target);
  const revisions = new Set();
  const server = createServer((req, res) => {
    const revision = req.headers['mcp-protocol-version'];
    if (typeof revision === 'string') revisions.add(revision);
    const upstream = request(upstreamUrl, { method: req.method, path: req.url, headers: { ...req.headers, host: upstreamUrl.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.flushHeaders();
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}${upstreamUrl.pathname}`,
    revisions,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
