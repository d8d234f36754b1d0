#!/usr/bin/env node
// Where our HTTP server spends its CPU, auth on or off: runs the generated bench server with
// `--http` under `node --cpu-prof`, drives one workload case over keep-alive connections (the
// requests bench/http.mjs sends), then prints self time by file and by function, per call. With
// `--auth` the server is an OAuth resource server and every call reuses one JWT (bench/lib/issuer.mjs):
// the last lines add up the time spent in the auth code (runtime/auth/, http-auth, jose), callees
// included, on the reused-token path per call and, apart, once for the token's first verification.
//
//   node bench/profile-http.mjs [--auth] [--mode session|stateless] [--case weather|search]
//                               [--calls 20000] [--connections 16] [--top 25]
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatProfile } from './lib/cpuprofile.mjs';
import { startIssuer } from './lib/issuer.mjs';
import { repoRoot } from './lib/paths.mjs';
import { onServerCpu, pinSelf } from './lib/pin.mjs';
import { buildOurs } from './lib/servers.mjs';
import { loadWorkload } from './lib/workload.mjs';

const { values } = parseArgs({
  options: {
    auth: { type: 'boolean', default: false },
    mode: { type: 'string', default: 'stateless' },
    case: { type: 'string', default: 'weather' },
    calls: { type: 'string', default: '20000' },
    connections: { type: 'string', default: '16' },
    top: { type: 'string', default: '25' },
  },
});
const calls = Number(values.calls);
const testCase = loadWorkload().cases[values.case];
if (testCase === undefined) throw new Error(`no workload case ${values.case}`);
if (values.mode !== 'session' && values.mode !== 'stateless') throw new Error('--mode is session or stateless');

if (process.env.MCP_BENCH_NO_BUILD !== '1') buildOurs(); // MCP_BENCH_NO_BUILD=1: profile the build already there
pinSelf();
const issuer = values.auth ? await startIssuer() : undefined;
const profileDir = mkdtempSync(path.join(tmpdir(), 'mcp-gen-profile-http-'));
// An HTTP server runs until stopped, and node writes the profile only on a normal exit: SIGINT exits so.
const exitOnSigint = path.join(profileDir, 'exit-on-sigint.cjs');
writeFileSync(exitOnSigint, "process.on('SIGINT', () => process.exit(0));\n");
const args = [
  '--require', exitOnSigint,
  '--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', profileDir,
  path.join(repoRoot, 'bench', 'server', 'build', 'main.js'), '--http', '--port', '0',
  ...(issuer === undefined ? [] : ['--auth-issuer', issuer.issuer, '--auth-jwks', issuer.jwksUri, '--resource', issuer.resource]),
];
const { command, args: spawnArgs } = onServerCpu({ command: process.execPath, args });
const child = spawn(command, spawnArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
const url = await new Promise((resolve, reject) => {
  let err = '';
  child.stderr.on('data', (chunk) => {
    err += chunk;
    const match = /listening on (http:\/\/\S+)/.exec(err);
    if (match) resolve(new URL(match[1]));
  });
  child.on('exit', (code) => reject(new Error(`the server exited (${code}): ${err}`)));
});

const agent = new Agent({ keepAlive: true, maxSockets: Number(values.connections) });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
if (issuer !== undefined) headers.authorization = `Bearer ${issuer.token}`;
function post(body, extra = {}) {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { ...headers, ...extra, 'content-length': Buffer.byteLength(text) } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => (res.statusCode === 200 || res.statusCode === 202 ? resolve(res) : reject(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(chunks)}`))));
    });
    req.on('error', reject);
    req.end(text);
  });
}
let nextId = 1;
function call() {
  const id = nextId++;
  if (values.mode === 'stateless') {
    const params = { name: testCase.tool, arguments: testCase.args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } };
    return post({ jsonrpc: '2.0', id, method: 'tools/call', params }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': testCase.tool });
  }
  return post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: testCase.tool, arguments: testCase.args } });
}

try {
  if (values.mode === 'session') {
    const init = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
    headers['mcp-session-id'] = init.headers['mcp-session-id'];
    headers['mcp-protocol-version'] = '2025-11-25';
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
  let issued = 0;
  const worker = async () => {
    while (issued++ < calls) await call();
  };
  await Promise.all(Array.from({ length: Number(values.connections) }, worker));
} finally {
  agent.destroy();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
  await issuer?.close();
}

const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
if (file === undefined) throw new Error('the server wrote no profile');
const profile = JSON.parse(readFileSync(path.join(profileDir, file), 'utf8'));
rmSync(profileDir, { recursive: true, force: true });
const title = `ours${values.auth ? '+auth' : ''} ${values.case} ${values.mode}, ${values.connections} conn: ${calls} calls`;
process.stdout.write(formatProfile(profile, { top: Number(values.top), perCall: calls, title }));

// The auth code's share: samples with a frame of runtime/auth/, http-auth or jose anywhere on the
// stack (so the hashing, regexes and maps it calls count too), per call.
const AUTH_CODE = /runtime\/auth\/|runtime\/http-auth\.|node_modules\/jose\//;
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const inAuth = new Map();
const underAuth = (id) => {
  if (id === undefined) return false;
  if (!inAuth.has(id)) inAuth.set(id, AUTH_CODE.test(byId.get(id).callFrame.url) || underAuth(parentOf.get(id)));
  return inAuth.get(id);
};
// The first sight of a token (jose loading, the JWKS fetch, the signature check) is paid once per
// token, not per call: counted apart from the reused-token path.
const FIRST_SIGHT = /node_modules\/jose\/|runtime\/auth\/(jwt|introspection)\./;
const firstSight = new Map();
const underFirstSight = (id) => {
  if (id === undefined) return false;
  if (!firstSight.has(id)) firstSight.set(id, FIRST_SIGHT.test(byId.get(id).callFrame.url) || underFirstSight(parentOf.get(id)));
  return firstSight.get(id);
};
let authMicros = 0;
let firstSightMicros = 0;
let busyMicros = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  const micros = profile.timeDeltas[i] ?? 0;
  if (byId.get(id).callFrame.functionName !== '(idle)') busyMicros += micros;
  if (underAuth(id)) {
    if (underFirstSight(id)) firstSightMicros += micros;
    else authMicros += micros;
  }
}
const authByFunction = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  if (!underAuth(profile.samples[i])) continue;
  const { functionName, url, lineNumber } = byId.get(profile.samples[i]).callFrame;
  const fn = `${path.relative(repoRoot, url.replace(/^file:\/\//, '')) || '(native)'}:${lineNumber + 1} ${functionName || '(anonymous)'}`;
  authByFunction.set(fn, (authByFunction.get(fn) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
process.stdout.write('\nunder the auth code, self time by function\n');
for (const [fn, micros] of [...authByFunction].sort((a, b) => b[1] - a[1]).slice(0, 10)) process.stdout.write(`${(micros / calls).toFixed(2).padStart(8)} µs/call  ${fn}\n`);
process.stdout.write(
  `\nmain thread busy: ${(busyMicros / calls).toFixed(2)} µs/call; auth code, callees included: ${(authMicros / calls).toFixed(2)} µs/call` +
    ` on the reused-token path, plus ${(firstSightMicros / 1000).toFixed(1)} ms once (the token's first verification)\n`,
);
