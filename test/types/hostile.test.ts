import ts from 'typescript';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitProtocolTypes } from '../../src/emit/types/index.js';
import type { LoadedSpec } from '../../src/load/spec.js';
import { buildProtocolModel } from '../../src/model/protocol.js';
import { describeDiagnostics, STRICT_OPTIONS, typeCheck, writeTempProject } from './helpers.js';

const ESCAPE = '*/ export const pwn = 1; /*';
const TRICKY_VALUES = ['"quoted"', "it's", 'back\\slash', '${injected}', 'line\u2028separator', ESCAPE, '`tick`'];

/** A schema that tries every way text could turn into code. Parsed from JSON, as a loader would. */
function hostileSpec(): LoadedSpec {
  const defs = JSON.parse(
    JSON.stringify({
      Tricky: {
        description: `${ESCAPE}\r\nsecond line\u2028third\u2029fourth`,
        type: 'object',
        properties: {
          '*/': { type: 'string', description: ESCAPE },
          'a"b': { type: 'string' },
          constructor: { type: 'string' },
          '${x}': { type: 'number' },
          kind: { enum: TRICKY_VALUES },
          fixed: { const: ESCAPE },
          withDefault: { type: 'string', default: ESCAPE },
          PROTO_KEY: { type: 'boolean' },
        },
        required: ['kind', 'constructor'],
        additionalProperties: false,
      },
      'get-weather': { type: 'object', properties: { tricky: { $ref: '#/$defs/Tricky' } } },
      class: { type: 'string' },
      '1abc': { $ref: '#/$defs/class' },
      PingRequest: { type: 'object', properties: { method: { const: 'ping' }, params: { type: 'object' } }, required: ['method'] },
      EmptyResult: { type: 'object' },
      Result: { type: 'object' },
      ClientRequest: { anyOf: [{ $ref: '#/$defs/PingRequest' }] },
    }).replace('"PROTO_KEY"', '"__proto__"'), // JSON.parse keeps `__proto__` an own data property
  ) as Record<string, LoadedSpec['defs'][string]>;
  return { revision: '2099-01-01', dialect: '2020-12', source: 'hostile.json', warnings: [], defs };
}

/** Names exported by a module, as the type checker sees them. */
function exportedNames(dir: string, file: string): string[] {
  const program = ts.createProgram([join(dir, file)], STRICT_OPTIONS);
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(join(dir, file))!)!;
  return checker.getExportsOfModule(symbol).map((s) => s.name).sort();
}

describe('hostile schema text', () => {
  for (const docs of ['full', 'link', 'none'] as const) {
    it(`stays data with --docs ${docs}: compiles, declares only the expected names`, async () => {
      const model = buildProtocolModel(hostileSpec());
      const text = await emitProtocolTypes(model, { docs });
      const dir = writeTempProject({ 'types.ts': text });
      expect(describeDiagnostics(typeCheck(dir, ['types.ts']))).toBe('');
      const names = exportedNames(dir, 'types.ts');
      expect(names).not.toContain('pwn');
      expect(names).toEqual(
        [
          'Class', 'ClientNotificationMethod', 'ClientNotifications', 'ClientRequest', 'ClientRequestMethod', 'ClientRequests',
          'EmptyResult', 'ErrorCode', 'GetWeather', 'JSONRPC_VERSION', 'LATEST_PROTOCOL_VERSION', 'PingRequest',
          'ProtocolDefinitions', 'Result', 'ServerNotificationMethod', 'ServerNotifications', 'ServerRequestMethod',
          'ServerRequests', 'Tricky', '_1Abc',
        ].sort(),
      );
      // No raw line terminators that the TS scanner would honour inside a comment or literal.
      expect(text).not.toMatch(/[\r\u2028\u2029]/);
    });
  }

  it('full docs keep the words, escaped', async () => {
    const text = await emitProtocolTypes(buildProtocolModel(hostileSpec()), { docs: 'full' });
    expect(text).toContain('*\\/ export const pwn = 1; /*');
    expect(text).toContain('second line');
  });

  it('wire names stay wire names: the definitions map is keyed by them', async () => {
    const text = await emitProtocolTypes(buildProtocolModel(hostileSpec()), { docs: 'none' });
    const dir = writeTempProject({
      'types.ts': text,
      'use.ts': `import type { ProtocolDefinitions, GetWeather, Tricky } from './types.js';
export const a: ProtocolDefinitions['get-weather'] = {} satisfies GetWeather;
export const t: Tricky = { kind: 'it\\'s', constructor: 'c', '__proto__': true, '*/': 'x', 'a"b': 'y', '\${x}': 1 };
// @ts-expect-error: not one of the enum values
export const u: Tricky = { kind: 'its', constructor: 'c' };
`,
    });
    expect(describeDiagnostics(typeCheck(dir, ['use.ts']))).toBe('');
  });
});
