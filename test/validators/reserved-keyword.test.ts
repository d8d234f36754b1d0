/**
 * `x-mcp-gen-shared` is the stub the generated validators call the shared definitions with
 * (src/emit/validators/shared-defs.ts). Nobody may write it into a schema mcp-gen compiles: a
 * manifest holding it (or any `x-mcp-gen-*` key) is refused with the key's position, exit 2; a live
 * server's tool holding it is left out with a warning; and the emitter refuses one that got past both.
 * A property *named* like it is data and stays allowed.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { planSharedDefinitions } from '../../src/emit/validators/shared-defs.js';
import type { ServerSnapshot } from '../../src/load/introspect.js';
import { serviceFromSnapshot } from '../../src/model/service-from-snapshot.js';
import { reservedKeywordIn } from '../../src/schema/reserved-keywords.js';
import { brief, problemsOf, tempProject } from '../manifest/helpers.js';

describe('the reserved keyword x-mcp-gen-shared', () => {
  it('is found wherever ajv could read it as a keyword, never in property or definition names', () => {
    expect(reservedKeywordIn({ type: 'object', properties: { a: { 'x-mcp-gen-shared': 'user' } } })).toEqual({ pointer: '/properties/a/x-mcp-gen-shared', keyword: 'x-mcp-gen-shared' });
    expect(reservedKeywordIn({ anyOf: [{ type: 'null' }, { 'x-mcp-gen-type-name': 'T' }] })?.pointer).toBe('/anyOf/1/x-mcp-gen-type-name');
    // A `$ref` may point into data: a stub hidden in `default` would be compiled through it.
    expect(reservedKeywordIn({ $ref: '#/default', default: { 'x-mcp-gen-shared': 'user' } })?.pointer).toBe('/default/x-mcp-gen-shared');
    expect(reservedKeywordIn({ type: 'object', properties: { 'x-mcp-gen-shared': { type: 'string' } }, required: ['x-mcp-gen-shared'], $defs: { 'x-mcp-gen-x': { type: 'null' } } })).toBeUndefined();
  });

  it('in a manifest: refused at the key, file:line:col, exit 2, nothing written', async () => {
    const manifest = [
      'server: { name: s, version: 1.0.0 }',
      'tools:',
      '  - name: t',
      '    inputSchema:',
      '      type: object',
      '      properties:',
      '        x-mcp-gen-shared: { type: string }',
      '        user:',
      '          x-mcp-gen-shared: user',
      '',
    ].join('\n');
    const root = await tempProject({ 'manifest.yaml': manifest });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'));
    expect(problems.map(brief)).toEqual(["9:11 /tools/0/inputSchema/properties/user/x-mcp-gen-shared inputSchema uses 'x-mcp-gen-shared', a keyword reserved for mcp-gen's generated code"]);
    const lines: string[] = [];
    const out = path.join(root, 'out');
    const code = await main(['server', path.join(root, 'manifest.yaml'), '-o', out], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
    expect(code).toBe(2);
    expect(lines.join('\n')).toMatch(/manifest\.yaml:9:11: inputSchema uses 'x-mcp-gen-shared'/);
    expect(existsSync(out)).toBe(false);
  });

  it('in a shared definition of the manifest: refused where the definition is written', async () => {
    const manifest = [
      'server: { name: s, version: 1.0.0 }',
      'tools:',
      '  - name: t',
      '    inputSchema: { type: object, properties: { u: { $ref: "#/$defs/user" } } }',
      '$defs:',
      '  user:',
      '    type: object',
      '    x-mcp-gen-shared: user',
      '',
    ].join('\n');
    const root = await tempProject({ 'manifest.yaml': manifest });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'));
    expect(problems.map((p) => `${p.line}:${p.column} ${p.message}`)).toEqual(["8:5 inputSchema uses 'x-mcp-gen-shared', a keyword reserved for mcp-gen's generated code"]);
  });

  it("in a live server's tool: that tool is left out with a warning naming the place", () => {
    const snapshot: ServerSnapshot = {
      mcpGenSnapshot: 1,
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'srv', version: '1.0.0' },
      capabilities: { tools: {} },
      tools: [
        { name: 'kept', inputSchema: { type: 'object', properties: { 'x-mcp-gen-shared': { type: 'string' } } } },
        { name: 'smuggler', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { u: { 'x-mcp-gen-shared': 'user' } } } },
      ],
      prompts: [],
      resources: [],
      resourceTemplates: [],
    };
    const { model, warnings } = serviceFromSnapshot(snapshot, 'http://127.0.0.1:1/mcp');
    expect(model.tools.map((t) => t.name)).toEqual(['kept']);
    expect(warnings.map((w) => `${w.pointer} ${w.message}`)).toEqual([
      `/tools/1 tool "smuggler" left out: its outputSchema uses "x-mcp-gen-shared" (at /properties/u/x-mcp-gen-shared), a keyword reserved for mcp-gen's generated code`,
    ]);
  });

  it('is refused by the emitter if a schema gets past the loaders', () => {
    expect(() => planSharedDefinitions([{ type: 'object', properties: { u: { 'x-mcp-gen-shared': 'user' } } }], '$defs')).toThrow(/reserved keyword x-mcp-gen-shared/);
    // Also when another tool rules sharing out ($id): every schema is looked at.
    expect(() => planSharedDefinitions([{ $id: 'urn:a' }, { 'x-mcp-gen-shared': 'user' }], '$defs')).toThrow(/reserved keyword/);
  });
});
