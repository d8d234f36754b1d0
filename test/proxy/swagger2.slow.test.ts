// A Swagger 2.0 description through import and the generated proxy: path, query (multi and csv
// arrays), header and body parameters all reach the upstream (the anchor dropped them).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { importToFile } from '../../src/pipeline/import.js';
import { generate, serve, type ServedProxy } from './harness.js';
import { json, startRecordingUpstream, type RecordingUpstream } from './recording-upstream.js';

let upstream: RecordingUpstream;
let server: ServedProxy;

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  const manifest = join(mkdtempSync(join(tmpdir(), 'mcp-gen-proxy-swagger2-')), 'manifest.json');
  await importToFile(join(import.meta.dirname, 'fixtures', 'swagger2.yaml'), manifest, { baseUrl: `http://${upstream.host}/v1` });
  server = await serve(await generate(manifest));
});

afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

test('every kind of Swagger 2.0 parameter is sent, and the answer validated', async () => {
  upstream.answer = () => json({ id: 9 }, 201);
  const listed = await server.client.listTools();
  const input = listed.tools[0]!.inputSchema as { properties: Record<string, unknown> };
  const args: Record<string, unknown> = { petId: 4, tags: ['a', 'b'], ids: [1, 2], 'X-Request-Id': 'r-1' };
  // The body's argument is named by the import (docs/openapi.md); it is the one object-typed property left.
  const bodyArgument = Object.keys(input.properties).find((name) => !(name in args))!;
  args[bodyArgument] = { reason: 'checkup', minutes: 30 };
  const result = await server.call(listed.tools[0]!.name, args);
  const request = upstream.last();
  expect([request.method, request.url, request.headers['x-request-id'], request.body]).toEqual([
    'POST',
    '/v1/pets/4/visits?tags=a&tags=b&ids=1,2',
    'r-1',
    '{"reason":"checkup","minutes":30}',
  ]);
  expect(result.structuredContent).toEqual({ id: 9 });
});
