/**
 * `mcp-gen diff` sees renames (issue 27, item 12): a property removed and one added with the same
 * schema read as "probably renamed" (still breaking), with the rename as structured data in
 * `--json`; the same for prompt arguments and tools; the closed-object note only where it explains
 * the severity. From files, and from live servers (the mock) over stdio and HTTP.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMock } from '../../src/mock/index.js';
import { diffJson, manifest, run, tempDir, writeJson, type JsonReport } from './helpers.js';

type Json = { [key: string]: unknown };
const str = { type: 'string', minLength: 1 };
const closedObject = (properties: Json, required: string[]): Json => ({ type: 'object', properties, required, additionalProperties: false });
const withTool = (inputSchema: Json, outputSchema?: Json): Json => manifest({ tools: [{ name: 'get_weather', inputSchema, ...(outputSchema ? { outputSchema } : {}) }] });

const OLD = withTool(closedObject({ city: str, units: { enum: ['c', 'f'] } }, ['city']));
const NEW = withTool(closedObject({ location: str, units: { enum: ['c', 'f'] } }, ['location']));
const P = '/tools/get_weather/inputSchema/properties';

function byPointer(report: JsonReport): Record<string, JsonReport['findings'][number]> {
  return Object.fromEntries(report.findings.map((f) => [f.pointer, f]));
}

describe('property renames', () => {
  const dir = tempDir();

  it('a required input property renamed: both findings say so (still breaking), carry { from, to }, and no unexplained closed-object note', async () => {
    const report = await diffJson(writeJson(dir, 'old.json', OLD), writeJson(dir, 'new.json', NEW));
    const found = byPointer(report);
    expect(Object.keys(found).sort()).toEqual([`${P}/city`, `${P}/location`]);
    expect(found[`${P}/city`]).toMatchObject({ kind: 'property-removed', severity: 'breaking', message: 'input property "city" removed, probably renamed to "location"', rename: { from: 'city', to: 'location' } });
    expect(found[`${P}/location`]).toMatchObject({ kind: 'property-added', severity: 'breaking', message: 'input property "location" added (required), probably renamed from "city"', rename: { from: 'city', to: 'location' } });
    // Clients send input: the old schema being closed does not explain why this breaks them.
    for (const f of report.findings) expect(f.message).not.toContain('allowed no other properties');
    const human = await run('diff', join(dir, 'old.json'), join(dir, 'new.json'));
    expect(human.code).toBe(1);
    expect(human.out.join('\n')).toContain('probably renamed from "city"');
  });

  it('the closed-object note stays where it explains the severity: an output field added to a closed object', async () => {
    const out = (properties: Json, required: string[]) => withTool({ type: 'object' }, closedObject(properties, required));
    const report = await diffJson(writeJson(dir, 'o1.json', out({ t: { type: 'number' } }, ['t'])), writeJson(dir, 'o2.json', out({ t: { type: 'number' }, h: { type: 'integer' } }, ['t', 'h'])));
    expect(report.findings).toEqual([expect.objectContaining({ severity: 'breaking', message: 'output field "h" added (required); the old schema allowed no other properties' })]);
  });

  it('no rename when the schemas differ, or when two look-alike properties make it a guess', async () => {
    const differs = await diffJson(writeJson(dir, 'd1.json', OLD), writeJson(dir, 'd2.json', withTool(closedObject({ location: { type: 'number' }, units: { enum: ['c', 'f'] } }, ['location']))));
    const ambiguous = await diffJson(
      writeJson(dir, 'a1.json', OLD),
      writeJson(dir, 'a2.json', withTool(closedObject({ location: str, country: str, units: { enum: ['c', 'f'] } }, ['location']))),
    );
    for (const report of [differs, ambiguous]) {
      expect(report.findings.length).toBeGreaterThanOrEqual(2);
      for (const f of report.findings) {
        expect(f.message).not.toContain('renamed');
        expect(f.rename).toBeUndefined();
      }
    }
  });

  it('prompt arguments and tools: the same hint and structured rename', async () => {
    const prompts = (name: string): Json => manifest({ prompts: [{ name: 'plan', arguments: [{ name, description: 'Where.', required: true }] }] });
    const args = await diffJson(writeJson(dir, 'p1.json', prompts('city')), writeJson(dir, 'p2.json', prompts('location')));
    expect(byPointer(args)['/prompts/plan/arguments/city']).toMatchObject({ severity: 'breaking', message: 'argument "city" removed, probably renamed to "location"', rename: { from: 'city', to: 'location' } });
    expect(byPointer(args)['/prompts/plan/arguments/location']).toMatchObject({ severity: 'breaking', message: 'argument "location" added (required), probably renamed from "city"', rename: { from: 'city', to: 'location' } });
    const tools = (name: string): Json => manifest({ tools: [{ name, inputSchema: closedObject({ city: str }, ['city']) }] });
    const renamed = await diffJson(writeJson(dir, 't1.json', tools('weather')), writeJson(dir, 't2.json', tools('get_weather')));
    expect(byPointer(renamed)['/tools/weather']).toMatchObject({ severity: 'breaking', rename: { from: 'weather', to: 'get_weather' } });
    expect(byPointer(renamed)['/tools/get_weather']).toMatchObject({ severity: 'compatible', rename: { from: 'weather', to: 'get_weather' } });
  });
});

describe('property renames against a live server', () => {
  const dir = tempDir();
  const oldPath = writeJson(dir, 'old.json', OLD);
  const newManifest = join(dir, 'new.json');
  writeFileSync(newManifest, JSON.stringify(NEW));

  for (const transport of ['stdio', 'http'] as const) {
    it(`${transport}: the mock of the new manifest as the new side`, async () => {
      const mock = transport === 'http' ? await startMock({ manifest: newManifest, transport }) : undefined;
      try {
        const side = mock ? mock.url : `cmd:'${process.execPath}' '${join(process.cwd(), 'bin', 'mcp-gen.js')}' mock '${newManifest}'`;
        const result = await run('diff', oldPath, side, '--json', '--fail-on', 'none');
        expect(result.code, result.err.join('\n')).toBe(0);
        const found = byPointer(JSON.parse(result.out.join('\n')) as JsonReport);
        expect(found[`${P}/location`]).toMatchObject({ severity: 'breaking', message: 'input property "location" added (required), probably renamed from "city"', rename: { from: 'city', to: 'location' } });
        expect(found[`${P}/city`]?.rename).toEqual({ from: 'city', to: 'location' });
      } finally {
        await mock?.close();
      }
    }, 60_000);
  }
});
