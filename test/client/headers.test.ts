// x-mcp-header: which annotations make a tool unusable, and how values become header text.
import { describe, expect, it } from 'vitest';
import { headerMirrors, headerValue, paramHeaderValue } from '../../src/runtime/client/headers.js';

const schema = (property: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: { value: property, ...more },
});

describe('x-mcp-header validity', () => {
  it('accepts string, integer and boolean parameters, nested ones too', () => {
    expect(headerMirrors(schema({ type: 'string', 'x-mcp-header': 'Region' }, { n: { type: 'object', properties: { on: { type: 'boolean', 'x-mcp-header': 'On' } } } }))).toEqual({
      mirrors: [
        { path: ['value'], header: 'Region' },
        { path: ['n', 'on'], header: 'On' },
      ],
    });
  });

  it.each([
    ['empty', { type: 'string', 'x-mcp-header': '' }],
    ['space', { type: 'string', 'x-mcp-header': 'A B' }],
    ['colon', { type: 'string', 'x-mcp-header': 'A:B' }],
    ['tab', { type: 'string', 'x-mcp-header': 'A\tB' }],
    ['non-ASCII', { type: 'string', 'x-mcp-header': 'Região' }],
    ['not a string', { type: 'string', 'x-mcp-header': 3 }],
    ['number type', { type: 'number', 'x-mcp-header': 'N' }],
    ['object type', { type: 'object', 'x-mcp-header': 'O' }],
    ['array type', { type: 'array', 'x-mcp-header': 'A' }],
    ['no type', { 'x-mcp-header': 'T' }],
  ])('rejects %s', (_, property) => {
    expect(headerMirrors(schema(property))).toHaveProperty('problem');
  });

  it('rejects names used twice, ignoring case', () => {
    const result = headerMirrors(schema({ type: 'string', 'x-mcp-header': 'MyField' }, { other: { type: 'string', 'x-mcp-header': 'myfield' } }));
    expect(result).toEqual({ problem: expect.stringContaining('duplicate') });
  });

  it.each([
    ['(', 'A(B'],
    ['"', 'A"B'],
    ['/', 'A/B'],
    [',', 'A,B'],
    ['@', 'A@B'],
    ['DEL', 'A\u007fB'],
    ['CR LF', 'A\r\nB'],
  ])('rejects a name with %s, which is not a token character', (_, header) => {
    expect(headerMirrors(schema({ type: 'string', 'x-mcp-header': header }))).toEqual({ problem: expect.stringContaining('not an HTTP header token') });
  });

  it("accepts every token character: !#$%&'*+-.^_`|~ and letters and digits", () => {
    expect(headerMirrors(schema({ type: 'string', 'x-mcp-header': "!#$%&'*+-.^_`|~aZ09" }))).toHaveProperty('mirrors');
  });

  const string = (header: string) => ({ type: 'string', 'x-mcp-header': header });
  it.each([
    ['the root', { ...string('Root') }],
    ['items', { type: 'object', properties: { list: { type: 'array', items: string('L') } } }],
    ['prefixItems', { type: 'object', properties: { list: { type: 'array', prefixItems: [string('L')] } } }],
    ['anyOf', { type: 'object', anyOf: [{ properties: { a: string('A') } }] }],
    ['oneOf', { type: 'object', properties: { a: { oneOf: [string('A')] } } }],
    ['allOf', { type: 'object', allOf: [{ type: 'object', properties: { a: string('A') } }] }],
    ['not', { type: 'object', properties: { a: { not: string('A') } } }],
    ['if/then/else', { type: 'object', if: { properties: { a: string('A') } }, then: {}, else: {} }],
    ['$defs (a $ref target)', { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: string('A') } }],
    ['definitions', { type: 'object', definitions: { A: string('A') } }],
    ['additionalProperties', { type: 'object', additionalProperties: string('A') }],
    ['patternProperties', { type: 'object', patternProperties: { '^a': string('A') } }],
    ['dependentSchemas', { type: 'object', dependentSchemas: { a: { properties: { b: string('B') } } } }],
    ['properties under items', { type: 'object', properties: { list: { type: 'array', items: { type: 'object', properties: { a: string('A') } } } } }],
  ])('rejects an x-mcp-header under %s: it is not statically reachable', (_, inputSchema) => {
    expect(headerMirrors(inputSchema)).toEqual({ problem: expect.stringContaining('not statically reachable') });
  });

  it('treats data as data: a property named x-mcp-header, enum and default values, unknown keywords', () => {
    const inputSchema = {
      type: 'object',
      properties: { 'x-mcp-header': { type: 'string', default: { 'x-mcp-header': 'D' }, enum: [{ 'x-mcp-header': 'E' }] } },
      'x-vendor': { 'x-mcp-header': 'V' },
    };
    expect(headerMirrors(inputSchema)).toEqual({ mirrors: [] });
  });

  it('walks a 100,000-level deep schema without overflowing the stack', () => {
    let deep: Record<string, unknown> = { type: 'string', 'x-mcp-header': 'Deep' };
    for (let i = 0; i < 100_000; i++) deep = { type: 'object', properties: { a: deep } };
    const result = headerMirrors(deep);
    expect(result).toHaveProperty('mirrors');
    expect((result as { mirrors: readonly { path: readonly string[] }[] }).mirrors[0]?.path).toHaveLength(100_000);
  });
});

describe('header values', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['us west 1', 'us west 1'],
    ['', ''],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['a\tb', '=?base64?YQli?='],
    ['=?base64?x?=', '=?base64?PT9iYXNlNjQ/eD89?='],
  ])('%j → %j', (value, expected) => {
    expect(headerValue(value)).toBe(expected);
  });

  it('writes numbers and booleans plainly and leaves null, objects and non-finite numbers out', () => {
    expect(paramHeaderValue(42)).toBe('42');
    expect(paramHeaderValue(3.5)).toBe('3.5');
    expect(paramHeaderValue(false)).toBe('false');
    expect(paramHeaderValue(null)).toBeUndefined();
    expect(paramHeaderValue({})).toBeUndefined();
    expect(paramHeaderValue(Number.NaN)).toBeUndefined();
  });
});
