// The benchmarks' HTTP side: starting a server that prints `listening on <url>`, and a thin MCP
// client over one keep-alive agent (bench/http.mjs, bench/auth-overhead.mjs).
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { onServerCpu } from './pin.mjs';

/** Spawns `command args` on the server's CPU and resolves once it says where it listens. */
export function startHttpServer(command, args, label) {
  const pinned = onServerCpu({ command, args });
  const child = spawn(pinned.command, pinned.args, { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(err);
      if (match) resolve({ child, url: new URL(match[1]) });
    });
    child.on('exit', (code) => reject(new Error(`${label} exited (${code}): ${err}`)));
  });
}

/**
 * One HTTP client: a keep-alive agent with `connections` sockets. `mode` is 'session' (initialize
 * first, then the session's headers) or 'stateless'; `stateless2026` sends stateless calls the
 * 2026-07-28 way (headers and `_meta`), for servers that speak it.
 */
export class HttpPeer {
  constructor({ server, url, mode, connections, token, stateless2026 }) {
    /** The server's name, for errors and checks. */
    this.server = server;
    this.url = url;
    this.mode = mode;
    this.stateless2026 = stateless2026;
    this.agent = new Agent({ keepAlive: true, maxSockets: connections });
    this.headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (token !== undefined) this.headers.authorization = `Bearer ${token}`;
    this.nextId = 1;
  }

  post(body, extraHeaders = {}) {
    const text = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        { host: this.url.hostname, port: this.url.port, path: this.url.pathname, method: 'POST', agent: this.agent, headers: { ...this.headers, ...extraHeaders, 'content-length': Buffer.byteLength(text) } },
        (res) => {
          const chunks = [];
          // A connection reset mid-answer errors the response, not the request: named, not uncaught.
          res.on('error', (error) => reject(new Error(`${this.server}: the answer broke off: ${error.message}`)));
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('end', () => {
            const raw = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== 200 && res.statusCode !== 202) reject(new Error(`${this.server}: HTTP ${res.statusCode}: ${raw.slice(0, 300)}`));
            else resolve({ headers: res.headers, body: raw === '' ? undefined : JSON.parse(raw) });
          });
        },
      );
      req.on('error', (error) => reject(new Error(`${this.server}: ${error.message}`)));
      req.end(text);
    });
  }

  async open() {
    if (this.mode !== 'session') return;
    const init = await this.post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
    this.headers['mcp-session-id'] = init.headers['mcp-session-id'];
    this.headers['mcp-protocol-version'] = '2025-11-25';
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** One tools/call in this peer's mode. */
  call(tool, args) {
    const id = this.nextId++;
    if (this.stateless2026 && this.mode === 'stateless') {
      const params = { name: tool, arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } };
      return this.post({ jsonrpc: '2.0', id, method: 'tools/call', params }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': tool });
    }
    return this.post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args } });
  }

  close() {
    this.agent.destroy();
  }
}
