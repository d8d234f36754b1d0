// Request bodies that are not JSON, imported from an OpenAPI description and sent by the generated
// proxy: a multipart form whose file parts arrive as base64 and leave as bytes, a binary body
// (`encoding: base64`), and a text body. The local upstream records the bytes that arrived.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importToFile } from '../../src/pipeline/import.js';
import { tempDir } from '../server/support.js';
import { generate, serve, type ServedProxy } from './harness.js';
import { json, startRecordingUpstream, type RecordingUpstream } from './recording-upstream.js';

// Every byte value, so a decoding that treats the file as text would show.
const FILE = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

const DESCRIPTION = {
  openapi: '3.0.3',
  info: { title: 'Swagger Petstore - OpenAPI 3.0', version: '1.0.0' },
  servers: [{ url: 'https://petstore.example.com/api/v3' }],
  paths: {
    '/pet/{petId}/uploadImage': {
      post: {
        operationId: 'uploadFile',
        summary: 'Uploads an image',
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { code: { type: 'integer' } } } } } } },
      },
    },
    '/pet/{petId}/photos': {
      post: {
        operationId: 'addPhotos',
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: {
          required: true,
          content: { 'multipart/form-data': { schema: { type: 'object', required: ['photo'], properties: { photo: { type: 'string', format: 'binary' }, caption: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } } } },
        },
        responses: { '204': { description: 'done' } },
      },
    },
    '/notes': { post: { operationId: 'postNote', requestBody: { required: true, content: { 'text/plain': { schema: { type: 'string' } } } }, responses: { '204': { description: 'done' } } } },
  },
};

let upstream: RecordingUpstream;
let server: ServedProxy;

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  const work = tempDir('proxy-bodies');
  const description = join(work, 'openapi.json');
  writeFileSync(description, JSON.stringify(DESCRIPTION));
  const manifest = join(work, 'manifest.yaml');
  await importToFile(description, manifest, { baseUrl: `http://${upstream.host}` });
  server = await serve(await generate(manifest));
}, 120_000);

afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

describe('bodies that are not JSON reach the upstream as the description says', () => {
  test('a binary body: the argument is base64, the upstream gets its bytes and the media type', async () => {
    upstream.answer = () => json({ code: 200 });
    const result = await server.call('upload_file', { petId: 7, body: FILE.toString('base64') });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const request = upstream.last();
    expect([request.method, request.url]).toEqual(['POST', '/pet/7/uploadImage']);
    expect(request.headers['content-type']).toBe('application/octet-stream');
    expect(request.bytes.equals(FILE)).toBe(true);
  });

  test('a multipart form: file parts decoded from base64, other parts as text, lists repeated', async () => {
    upstream.answer = () => ({ status: 204 });
    const result = await server.call('add_photos', { petId: 7, body: { photo: FILE.toString('base64'), caption: 'Rex, älter', tags: ['a', 'b'] } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const request = upstream.last();
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    // Parsed back by a multipart reader of its own (the Fetch API's), not by the sender's code.
    const form = await new Response(request.bytes, { headers: { 'content-type': String(request.headers['content-type']) } }).formData();
    const photo = form.get('photo') as File;
    expect(Buffer.from(await photo.arrayBuffer()).equals(FILE)).toBe(true);
    expect(form.get('caption')).toBe('Rex, älter');
    expect(form.getAll('tags')).toEqual(['a', 'b']);
  });

  test('a text body is sent as it is', async () => {
    upstream.answer = () => ({ status: 204 });
    expect((await server.call('post_note', { body: 'line one\nline two' })).isError).toBeFalsy();
    expect(upstream.last().headers['content-type']).toBe('text/plain');
    expect(upstream.last().body).toBe('line one\nline two');
  });

  test('text that is not base64 is a tool error, and nothing is sent', async () => {
    upstream.requests.length = 0;
    const result = await server.call('upload_file', { petId: 7, body: 'not base64!' });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe('argument body is not base64 text');
    expect(upstream.requests).toHaveLength(0);
  });
});
