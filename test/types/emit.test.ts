import { describe, expect, it } from 'vitest';
import { emitProtocolTypes } from '../../src/emit/types/index.js';
import { KNOWN_REVISIONS } from '../../src/load/spec.js';
import { describeDiagnostics, loadModel, typeCheck, typesFor, writeTempProject } from './helpers.js';

const MODES = ['link', 'full', 'none'] as const;

describe('emitProtocolTypes', () => {
  it('compiles for every revision and docs mode, together, under the strictest options', async () => {
    const files: Record<string, string> = {};
    for (const revision of KNOWN_REVISIONS) {
      for (const docs of MODES) files[`${revision}.${docs}.ts`] = await typesFor(revision, docs);
    }
    const dir = writeTempProject(files);
    const diagnostics = typeCheck(dir, Object.keys(files));
    expect(describeDiagnostics(diagnostics)).toBe('');
  });

  it('declares every definition under its own name, plus the unions, maps and constants', async () => {
    for (const revision of KNOWN_REVISIONS) {
      const model = await loadModel(revision);
      const text = await typesFor(revision);
      for (const name of Object.keys(model.definitions)) {
        expect(text, `${revision} ${name}`).toMatch(new RegExp(`^export (interface|type) ${name}\\b`, 'm'));
      }
      for (const binding of ['ProtocolDefinitions', 'ClientRequests', 'ServerRequests', 'ClientNotifications', 'ServerNotifications', 'ClientRequestMethod']) {
        expect(text).toMatch(new RegExp(`^export (interface|type) ${binding}\\b`, 'm'));
      }
      expect(text).toContain(`export const LATEST_PROTOCOL_VERSION = "${revision}";`);
      expect(text).toContain('export const JSONRPC_VERSION = "2.0";');
      expect(text).toMatch(/^ {2}ParseError: -32700,$/m);
    }
  });

  it('gives the same bytes every time', async () => {
    const model = await loadModel('2025-11-25');
    const first = await emitProtocolTypes(model, { docs: 'link' });
    const second = await emitProtocolTypes(model, { docs: 'link' });
    expect(second).toBe(first);
  });
});

describe('docs modes', () => {
  it('link: a spec link per definition and no description text at all', async () => {
    for (const revision of KNOWN_REVISIONS) {
      const model = await loadModel(revision);
      const text = await typesFor(revision, 'link');
      for (const definition of Object.values(model.definitions)) {
        expect(text).toContain(`/** @see https://modelcontextprotocol.io/specification/${revision}/schema#${definition.name.toLowerCase()} */\nexport `);
      }
      for (const description of descriptions(model)) {
        // Short ones ("The error type that occurred.") are checked too: none may appear.
        expect(text.includes(description), `${revision}: ${description.slice(0, 60)}`).toBe(false);
      }
    }
  });

  it('full: the descriptions, escaped; none: no comments', async () => {
    const model = await loadModel('2026-07-28');
    const full = await typesFor('2026-07-28', 'full');
    const firstLine = descriptions(model).map((d) => d.split('\n')[0]!).find((line) => line.length > 40)!;
    expect(full).toContain(firstLine);
    const none = await typesFor('2026-07-28', 'none');
    expect(none).not.toMatch(/\/\*|\/\//);
  });
});

/** Every `description` string anywhere in the model's schemas. */
function descriptions(model: { definitions: Record<string, { schema: unknown }> }): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'description' && typeof child === 'string') found.add(child);
        else walk(child);
      }
    }
  };
  for (const definition of Object.values(model.definitions)) walk(definition.schema);
  return [...found];
}
