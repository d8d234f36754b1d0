/**
 * Schemas the spec-update tests need, derived in code from the schemas shipped in schema/mcp-spec/
 * (nothing hand-edited is committed): a draft with added constraints, one with an added request
 * method, one where a method's meaning changed, one that states its version. Also a loopback
 * HTTP server to fetch them from, and a port nobody listens on.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLED_SPEC_DIR } from '../../src/load/spec.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function shippedSchema(revision: string): Json {
  return JSON.parse(readFileSync(join(BUNDLED_SPEC_DIR, revision, 'schema.json'), 'utf8')) as Json;
}

export function tempDir(prefix = 'mcp-gen-spec-any-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes `schema` to `<dir>/<folder>/schema.json` and returns that file's path. */
export function writeSchema(dir: string, folder: string, schema: Json): string {
  mkdirSync(join(dir, folder), { recursive: true });
  const path = join(dir, folder, 'schema.json');
  writeFileSync(path, `${JSON.stringify(schema, null, 2)}\n`);
  return path;
}

/** Length and count limits a pull request might add: on a name every message carries, and on a list result. */
export function withConstraints(schema: Json, nameLimit = 64): Json {
  const copy = structuredClone(schema);
  copy['$defs']['Implementation']['properties']['name']['maxLength'] = nameLimit;
  copy['$defs']['ListToolsResult']['properties']['tools']['maxItems'] = 500;
  if (copy['$defs']['CallToolRequestParams']) copy['$defs']['CallToolRequestParams']['properties']['name']['maxLength'] = nameLimit;
  return copy;
}

/** A new client→server request `x/y` (with its result), as a member of ClientRequest. */
export function withAddedMethod(schema: Json): Json {
  const copy = structuredClone(schema);
  const defs = copy['$defs'];
  defs['XyRequest'] = {
    type: 'object',
    properties: { jsonrpc: { const: '2.0', type: 'string' }, id: { $ref: '#/$defs/RequestId' }, method: { const: 'x/y', type: 'string' } },
    required: ['jsonrpc', 'id', 'method'],
  };
  defs['XyResult'] = { type: 'object', properties: {} };
  defs['ClientRequest']['anyOf'].push({ $ref: '#/$defs/XyRequest' });
  return copy;
}

/** `tools/list` changes meaning: its params, optional until now, become required. */
export function withChangedMeaning(schema: Json): Json {
  const copy = structuredClone(schema);
  const request = copy['$defs']['ListToolsRequest'];
  request['required'] = [...(request['required'] as string[]), 'params'];
  return copy;
}

/** The version stated the way a schema generator would: a `const` on the request's protocol version. */
export function statingVersion(schema: Json, version: string): Json {
  const copy = structuredClone(schema);
  copy['$defs']['RequestMetaObject']['properties']['io.modelcontextprotocol/protocolVersion']['const'] = version;
  return copy;
}

/** Serves files on 127.0.0.1 by path; 404 for anything else. */
export async function serveFiles(files: Record<string, string>): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const body = files[req.url ?? ''];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' }).end(body ?? 'not found');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => closeServer(server) };
}

/** A loopback URL on which nothing listens: a port taken, then given back. */
export async function unreachableUrl(path: string): Promise<string> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  await closeServer(server);
  return `http://127.0.0.1:${port}${path}`;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((done) => server.close(() => done()));
}

/** Runs the CLI in process, as a user would type it (the diff tests' helper). */
export { run as cli } from '../diff/helpers.js';
