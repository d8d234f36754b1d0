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
    expect(result).toEqual({ problem: expect.stringContaining('used twice') });
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
