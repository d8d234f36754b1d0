// A minimal MCP client over stdio for the benchmarks: newline-delimited JSON-RPC, requests matched to
// answers by id. Deliberately thin so the client's own cost stays small and equal for every server.
import { spawn } from 'node:child_process';

export const PROTOCOL_VERSION = process.env.MCP_BENCH_PROTOCOL ?? '2025-11-25';

export class StdioPeer {
  /**
   * @param {{ command: string, args: string[], cwd?: string }} server
   */
  constructor(server) {
    this.child = spawn(server.command, server.args, {
      cwd: server.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: process.env,
    });
    this.pid = this.child.pid;
    this.nextId = 1;
    /** @type {Map<number, { resolve: (m: any) => void, reject: (e: Error) => void }>} */
    this.waiting = new Map();
    this.stderr = '';
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => resolve({ code, signal }));
      this.child.once('error', (error) => resolve({ code: null, signal: error.message }));
    });
    this.exited.then(({ code, signal }) =>
      this.failAll(new Error(`server exited (${code ?? signal})${this.stderrTail()}`)),
    );
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text) => {
      this.stderr = (this.stderr + text).slice(-4000);
    });
    this.child.stdin.on('error', () => {}); // a dead server shows up through `exited`
    this.readLines();
  }

  stderrTail() {
    return this.stderr.trim() === '' ? '' : `; stderr: ${this.stderr.trim().slice(-1000)}`;
  }

  readLines() {
    /** @type {Buffer[]} */
    let parts = [];
    this.child.stdout.on('data', (chunk) => {
      let start = 0;
      let newline;
      while ((newline = chunk.indexOf(10, start)) !== -1) {
        parts.push(chunk.subarray(start, newline));
        const line =
          parts.length === 1 ? parts[0].toString('utf8') : Buffer.concat(parts).toString('utf8');
        parts = [];
        start = newline + 1;
        if (line.length > 0) this.onLine(line);
      }
      if (start < chunk.length) parts.push(chunk.subarray(start));
    });
  }

  onLine(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      this.failAll(new Error(`server wrote a line that is not JSON: ${line.slice(0, 200)}`));
      return;
    }
    const waiter = this.waiting.get(message.id);
    if (waiter === undefined) return; // server notifications and requests are not part of the workload
    this.waiting.delete(message.id);
    if (message.error !== undefined)
      waiter.reject(new Error(`JSON-RPC error ${JSON.stringify(message.error)}`));
    else waiter.resolve(message.result);
  }

  failAll(error) {
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }

  /** Sends a request; resolves with its `result`, rejects on a JSON-RPC error. */
  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  }

  notify(method, params) {
    this.child.stdin.write(
      JSON.stringify(
        params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params },
      ) + '\n',
    );
  }

  /** initialize + notifications/initialized; resolves with the initialize result. */
  async initialize() {
    const result = await this.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'mcp-gen-bench', version: '1.0.0' },
    });
    this.notify('notifications/initialized');
    return result;
  }

  callTool(name, args) {
    return this.request('tools/call', { name, arguments: args });
  }

  /** Closes stdin (the stdio shutdown the spec describes), then kills the server if it lingers. */
  async close() {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 2000);
    await this.exited;
    clearTimeout(timer);
  }
}
