/**
 * The compile plan's walks (compile-plan.ts, ajv-schema.ts): one copy of the caller's document,
 * rewritten in place, and no `__proto__` walk for the schemas that have no such member.
 */
import { describe, expect, it } from 'vitest';
import { planCompilation } from '../../src/emit/validators/compile-plan.js';
import { protoMembersForAjv, type Json } from '../../src/emit/validators/ajv-schema.js';

describe('the compile plan', () => {
  it('leaves the caller\'s document as it was', () => {
    const input = {
      $defs: {
        A: { type: 'object', description: 'an A', properties: { b: { $ref: '#/$defs/B' }, list: { type: 'array', items: { $ref: '#/$defs/B' } } } },
        B: { type: 'string', enum: ['x', 'y'], title: 'B' },
      },
    };
    const before = JSON.parse(JSON.stringify(input)) as unknown;
    const plan = planCompilation(input);
    expect(input).toEqual(before);
    const a = plan.schemas.find((s) => s.key === 'mcp-gen:defs/A')?.schema as { properties: { b: { $ref: string }; list: { items: { $ref: string } } } };
    expect(a.properties.b.$ref).toBe('mcp-gen:defs/B');
    expect(a.properties.list.items.$ref).toBe('mcp-gen:defs/B');
    expect(a).not.toHaveProperty('description');
    expect(plan.target('#/$defs/A')).toBe('mcp-gen:defs/A');
  });

  it('spares the __proto__ rewrite a schema without such a member (the very object back)', () => {
    const plain = { type: 'object', properties: { name: { type: 'string', pattern: '"__proto__"' } } } as Json;
    expect(protoMembersForAjv(plain)).toBe(plain);
    const hostile = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as Json;
    expect(protoMembersForAjv(hostile)).toEqual({ type: 'object', properties: {}, patternProperties: { '^__proto__$': { type: 'string' } } });
  });
});
