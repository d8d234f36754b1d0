/**
 * Issue 6, finding 3: a `$schema` naming an unknown dialect or a remote meta-schema crashed the
 * manifest check ("internal error", exit 1: ajv looked the meta-schema up). Now each is a positioned
 * problem, exit 2, and nothing is fetched: a meta-schema served on loopback is never asked for.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';
import { brief, problemsOf, tempProject } from './helpers.js';

let server: Server;
let requests = 0;
let metaUrl = '';

beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    res.setHeader('content-type', 'application/json');
    res.end('{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  metaUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/meta.json`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('$schema', () => {
  test('a remote meta-schema or unknown dialect, at the root or nested: positioned; in a $ref file: dropped; nothing fetched', async () => {
    const root = await tempProject({
      'manifest.yaml': [
        'server: { name: s, version: 1.0.0 }',
        'tools:',
        '  - name: root',
        '    inputSchema:',
        `      $schema: '${metaUrl}'`,
        '      type: object',
        '  - name: nested',
        '    inputSchema:',
        '      type: object',
        '      properties:',
        `        a: { $schema: 'http://json-schema.org/draft-04/schema#', type: string }`,
        '  - name: viaref',
        '    inputSchema:',
        "      $ref: 'other.json'",
        '',
      ].join('\n'),
      'other.json': `{\n  "type": "object",\n  "properties": { "b": { "$schema": "${metaUrl}", "type": "string" } }\n}\n`,
    });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'), { displayPath: 'manifest.yaml' });
    expect(problems.map((p) => `${p.file}:${brief(p)}`)).toEqual([
      expect.stringMatching(/^manifest\.yaml:5:16 \/tools\/0\/inputSchema\/\$schema .*supported JSON Schema dialect/),
      expect.stringMatching(/^manifest\.yaml:11:23 \/tools\/1\/inputSchema\/properties\/a\/\$schema unsupported JSON Schema dialect "http:\/\/json-schema.org\/draft-04\/schema#"/),
      // A file reached by $ref loses every `$schema` when bundled (the tool schema's dialect decides), so
      // the one in other.json is neither a problem nor fetched.
    ]);
    expect(requests).toBe(0);
  });

  test('through the CLI: exit 2, no internal error, nothing fetched', async () => {
    const root = await tempProject({
      'manifest.yaml': `server: { name: s, version: 1.0.0 }\ntools:\n  - name: t\n    inputSchema: { $schema: '${metaUrl}', type: object, properties: { x: { $schema: 'urn:unknown', type: string } } }\n`,
    });
    const lines: string[] = [];
    const code = await main(['server', path.join(root, 'manifest.yaml'), '-o', path.join(root, 'out')], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
    expect(lines.join('\n')).not.toMatch(/internal error/);
    expect(lines.filter((l) => l.startsWith('error: '))).toHaveLength(2);
    expect(code).toBe(2);
    expect(requests).toBe(0);
  });
});
