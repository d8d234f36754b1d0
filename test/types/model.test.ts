import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/load/diagnostics.js';
import { KNOWN_REVISIONS, type LoadedSpec } from '../../src/load/spec.js';
import { buildProtocolModel, RESULT_EXCEPTIONS, type ProtocolModel } from '../../src/model/protocol.js';
import { loadModel, specDir } from './helpers.js';

/** Request definitions straight from the raw schema file, independent of the loader and model. */
function rawRequestMethods(revision: string): Map<string, string> {
  const document = JSON.parse(readFileSync(join(specDir, revision, 'schema.json'), 'utf8')) as {
    definitions?: Record<string, { properties?: { method?: { const?: string } } }>;
    $defs?: Record<string, { properties?: { method?: { const?: string } } }>;
  };
  const defs = document.$defs ?? document.definitions ?? {};
  const methods = new Map<string, string>();
  for (const [name, schema] of Object.entries(defs)) {
    const method = schema.properties?.method?.const;
    if (name.endsWith('Request') && typeof method === 'string') methods.set(method, name);
  }
  return methods;
}

function unionMembers(model: ProtocolModel, name: string): string[] {
  return model.unions.find((u) => u.name === name)?.members ?? [];
}

/** A result counts as a member of a union when it is one, or an alias of one (EmptyResult → Result). */
function resolvesInto(model: ProtocolModel, result: string, members: readonly string[]): boolean {
  if (members.includes(result)) return true;
  const schema = model.definitions[result]?.schema as { $ref?: string } | undefined;
  const target = schema?.$ref?.replace('#/$defs/', '');
  return target !== undefined && members.includes(target);
}

describe('request → result pairing', () => {
  for (const revision of KNOWN_REVISIONS) {
    it(`pairs every request method of ${revision}`, async () => {
      const model = await loadModel(revision);
      const raw = rawRequestMethods(revision);
      expect(raw.size).toBeGreaterThan(0);
      expect(model.requests.map((r) => r.method).sort()).toEqual([...raw.keys()].sort());
      for (const request of model.requests) {
        expect(model.definitions[request.result], `${request.method} → ${request.result}`).toBeDefined();
        expect(request.pairing).toBe(Object.hasOwn(RESULT_EXCEPTIONS, request.method) ? 'exception' : 'by-name');
        if (request.pairing === 'by-name') expect(request.result).toBe(request.request.replace(/Request$/, 'Result'));
      }
      // What a client asks, the server answers with a ServerResult, and the other way round.
      for (const request of model.clientRequests) {
        expect(resolvesInto(model, request.result, unionMembers(model, 'ServerResult')), request.method).toBe(true);
      }
      for (const request of model.serverRequests) {
        expect(resolvesInto(model, request.result, unionMembers(model, 'ClientResult')), request.method).toBe(true);
      }
    });
  }

  it('uses every exception somewhere', async () => {
    const used = new Set<string>();
    for (const revision of KNOWN_REVISIONS) for (const r of (await loadModel(revision)).requests) used.add(r.method);
    for (const method of Object.keys(RESULT_EXCEPTIONS)) expect(used).toContain(method);
  });

  it('refuses a request it cannot pair, naming the table to extend', () => {
    const spec: LoadedSpec = {
      revision: 'test',
      dialect: '2020-12',
      source: 'test.json',
      warnings: [],
      defs: { FrobRequest: { type: 'object', properties: { method: { const: 'frob' } } } },
    };
    expect(() => buildProtocolModel(spec)).toThrow(InputError);
    expect(() => buildProtocolModel(spec)).toThrow(/no result type for request "frob": expected FrobResult.*RESULT_EXCEPTIONS/);
  });
});

describe('unions and method maps', () => {
  it('2026-07-28: no ServerRequest; ClientNotification and ClientResult are single definitions', async () => {
    const model = await loadModel('2026-07-28');
    expect(model.unions.map((u) => u.name)).not.toContain('ServerRequest');
    expect(model.serverRequests).toEqual([]);
    expect(model.unions.find((u) => u.name === 'ClientNotification')).toEqual({ name: 'ClientNotification', shape: 'single', members: ['ClientNotification'] });
    expect(model.unions.find((u) => u.name === 'ClientResult')).toEqual({ name: 'ClientResult', shape: 'single', members: ['Result'] });
    expect(model.clientNotifications).toEqual([{ method: 'notifications/cancelled', notification: 'ClientNotification', params: 'required' }]);
  });

  it('2024-11-05: the classic method maps', async () => {
    const model = await loadModel('2024-11-05');
    expect(model.serverRequests.map((r) => r.method)).toEqual(['ping', 'roots/list', 'sampling/createMessage']);
    expect(model.clientRequests.find((r) => r.method === 'ping')).toEqual({ method: 'ping', request: 'PingRequest', params: 'optional', result: 'EmptyResult', pairing: 'exception', alternatives: [] });
    expect(model.clientRequests.find((r) => r.method === 'tools/call')).toEqual({ method: 'tools/call', request: 'CallToolRequest', params: 'required', result: 'CallToolResult', pairing: 'by-name', alternatives: [] });
  });

  it('2026-07-28: tools/call, prompts/get and resources/read may answer an InputRequiredResult', async () => {
    const model = await loadModel('2026-07-28');
    const alternatives = (method: string) => model.clientRequests.find((r) => r.method === method)?.alternatives;
    expect(alternatives('tools/call')).toEqual(['InputRequiredResult']);
    expect(alternatives('prompts/get')).toEqual(['InputRequiredResult']);
    expect(alternatives('resources/read')).toEqual(['InputRequiredResult']);
    expect(alternatives('tools/list')).toEqual([]);
  });
});

describe('constants', () => {
  it('error codes: defined ones by their definition names, standard ones where a revision leaves them implicit', async () => {
    const old = await loadModel('2025-06-18');
    expect(old.errorCodes).toEqual([
      { name: 'ParseError', code: -32700, source: 'json-rpc' },
      { name: 'InternalError', code: -32603, source: 'json-rpc' },
      { name: 'InvalidParamsError', code: -32602, source: 'json-rpc' },
      { name: 'MethodNotFoundError', code: -32601, source: 'json-rpc' },
      { name: 'InvalidRequestError', code: -32600, source: 'json-rpc' },
    ]);
    const tasks = await loadModel('2025-11-25');
    expect(tasks.errorCodes).toContainEqual({ name: 'URLElicitationRequiredError', code: -32042, source: 'schema' });
    const stateless = await loadModel('2026-07-28');
    expect(stateless.errorCodes.every((e) => e.source === 'schema')).toBe(true);
    expect(stateless.errorCodes.map((e) => [e.name, e.code])).toEqual([
      ['ParseError', -32700],
      ['InternalError', -32603],
      ['InvalidParamsError', -32602],
      ['MethodNotFoundError', -32601],
      ['InvalidRequestError', -32600],
      ['UnsupportedProtocolVersionError', -32022],
      ['MissingRequiredClientCapabilityError', -32021],
      ['HeaderMismatchError', -32020],
    ]);
  });

  it('protocol version is the revision name; JSON-RPC version comes from the schema', async () => {
    for (const revision of KNOWN_REVISIONS) {
      const model = await loadModel(revision);
      expect(model.protocolVersion).toBe(revision);
      expect(model.jsonrpcVersion).toBe('2.0');
    }
  });
});

describe('identifiers', () => {
  it('keeps every MCP definition name as its type name', async () => {
    for (const revision of KNOWN_REVISIONS) {
      for (const d of Object.values((await loadModel(revision)).definitions)) expect(d.identifier).toBe(d.name);
    }
  });

  it('derives identifiers for names TypeScript or the bindings cannot use, without clashes', () => {
    const spec: LoadedSpec = {
      revision: 'test',
      dialect: '2020-12',
      source: 'test.json',
      warnings: [],
      defs: { 'get-weather': {}, GetWeather: {}, class: {}, '1abc': {}, ErrorCode: {}, foo_bar: {}, base64data: {} },
    };
    const ids = Object.fromEntries(Object.values(buildProtocolModel(spec).definitions).map((d) => [d.name, d.identifier]));
    expect(ids).toEqual({
      '1abc': '_1Abc',
      ErrorCode: 'ErrorCode_2',
      GetWeather: 'GetWeather',
      base64data: 'Base64Data',
      class: 'Class',
      foo_bar: 'FooBar',
      'get-weather': 'GetWeather_2',
    });
  });
});
