/**
 * Manifests the generator fuzzer found failing, each fixed at its root and kept here under a name,
 * judged by the same oracle (see oracle.ts and the seed each one came from).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBatch } from './oracle.js';

const root = mkdtempSync(join(tmpdir(), 'mcp-gen-fuzz-regressions-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const server = { name: 'fuzz', version: '1.0.0' };

/** name → manifest; each must pass the oracle. */
const REGRESSIONS: Record<string, Record<string, unknown>> = {
  // Seed 20261126, case 28: json-schema-to-typescript prints a schema it types as `unknown` inline
  // and declares no name for it, so HandlersInput was missing ("internal error").
  'a tool schema typed unknown (allOf: [true]) still gets its named type': {
    server,
    tools: [{ name: 'Handlers', inputSchema: { type: 'object', allOf: [true] }, outputSchema: { type: 'object', anyOf: [true, { type: 'string' }] } }],
  },
  // Seed 97, case 6: a manifest mixing a draft-07 tool (tuple `items`) with 2020-12 ones was compiled
  // as 2020-12 as a whole, where that schema is invalid ("internal error"). Draft-07 schemas now
  // become their 2020-12 equivalent in the model (src/load/draft07.ts); the wire keeps the original.
  'a manifest mixing draft-07 and 2020-12 tool schemas': {
    server,
    tools: [
      { name: 'modern', inputSchema: { type: 'object', properties: { t: { type: 'array', prefixItems: [{ type: 'string' }] } } } },
      {
        name: 'classic',
        inputSchema: {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          properties: {
            pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
            ref: { $ref: '#/definitions/N', description: 'siblings of $ref are ignored in draft-07' },
            later: { prefixItems: [{ type: 'string' }], unevaluatedProperties: false },
          },
          dependencies: { a: ['b'], c: { required: ['d'] } },
          definitions: { N: { type: 'integer' } },
        },
      },
    ],
  },
  // Seed 145, case 33: an input schema that admits no value (`allOf: [false]`) is typed `never`, and
  // ToolHandler<never, …> fit no handler type of the runtime: server.ts did not compile.
  'a tool whose input schema admits nothing': {
    server,
    tools: [
      { name: 'never', inputSchema: { type: 'object', allOf: [false] } },
      { name: 'nothing', inputSchema: { type: 'object', not: {} }, outputSchema: { allOf: [false], type: 'object' } },
    ],
  },
  // Seed 241, case 11: `{}` is valid, but TypeScript sees the inherited `hasOwnProperty` of an
  // object literal and refused it for a type with an optional `hasOwnProperty?: …` member.
  'optional properties named after Object members accept objects without them': {
    server,
    tools: [
      {
        name: 'GET_USER',
        inputSchema: {
          type: 'object',
          properties: Object.fromEntries(['hasOwnProperty', 'toString', 'valueOf', 'constructor', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString'].map((n) => [n, { type: 'string' }])),
        },
      },
      {
        name: 'required_one',
        inputSchema: { type: 'object', properties: { toString: { type: 'string' }, valueOf: { type: 'number' } }, required: ['valueOf'] },
        outputSchema: { type: 'object', properties: { constructor: { type: 'boolean' } } },
      },
    ],
  },
  // Seed 1336, case 6: json-schema-to-typescript throws on minItems > maxItems (an array no value
  // meets, but a valid schema): "internal error".
  'array bounds no array meets': {
    server,
    tools: [{ name: 't', inputSchema: { type: 'object', properties: { a: { type: 'array', minItems: 3, maxItems: 1 } } } }],
  },
};

describe('generator fuzz regressions', () => {
  it('each former failure now passes the oracle', async () => {
    const names = Object.keys(REGRESSIONS);
    const results = await checkBatch(root, Object.values(REGRESSIONS));
    expect(results.map((r, i) => `${names[i]}: ${r.outcome}`)).toEqual(names.map((n) => `${n}: generated`));
  }, 120_000);
});
