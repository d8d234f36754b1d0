// The JSON helpers of the untrusted-server paths: they keep their own stacks, so depth never
// overflows them, and they agree with JSON.stringify / JSON.parse where those work.
import { describe, expect, it } from 'vitest';
import { jsonDepth, jsonText, MAX_JSON_DEPTH } from '../../src/load/deep-json.js';
import { duplicateKeys, lineAndColumn } from '../../src/load/json-duplicates.js';

const nestedArrays = (depth: number): string => '['.repeat(depth) + '1' + ']'.repeat(depth);

describe('jsonDepth', () => {
  it('counts objects and arrays, at any depth', () => {
    expect(jsonDepth(1)).toBe(0);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth({ a: [1, { b: null }] })).toBe(3);
    expect(jsonDepth(JSON.parse(nestedArrays(100_000)))).toBe(100_000);
  });
});

describe('jsonText', () => {
  it('writes what JSON.stringify(value, null, 2) writes', () => {
    const value = JSON.parse('{"a":[],"b":{},"c":[1,"x\\u2028\\"",true,null,{"d":-0.5e-7}],"__proto__":{"e":"é"},"":[[[]]]}');
    expect(jsonText(value)).toBe(JSON.stringify(value, null, 2));
    expect(jsonText({ kept: 1, dropped: undefined })).toBe(JSON.stringify({ kept: 1, dropped: undefined }, null, 2));
  });

  it('writes values deeper than JSON.stringify can, compactly past the limit, as text that parses back', () => {
    const text = nestedArrays(50_000);
    const value = JSON.parse(text) as unknown;
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    const written = jsonText(value);
    expect(written.replace(/\s/g, '')).toBe(text);
    expect(written.split('\n').length).toBe(2 * MAX_JSON_DEPTH + 1);
  });
});

describe('duplicateKeys', () => {
  it('finds repeated member names with their pointers, wherever they are', () => {
    const text = '{"tools":[{"name":"a","x":{"k":1,"k":2}},{"name":"b","name":"c"}],"a/b~":{"q\\"":1,"q\\"":2}}';
    expect(duplicateKeys(text)).toEqual([
      // With the values JSON.parse dropped, so a warning can name them.
      { pointer: '/tools/0/x/k', key: 'k', offset: text.indexOf('"k":2'), earlier: [1] },
      { pointer: '/tools/1/name', key: 'name', offset: text.indexOf('"name":"c"'), earlier: ['b'] },
      { pointer: '/a~1b~0/q"', key: 'q"', offset: text.lastIndexOf('"q\\"'), earlier: [1] },
    ]);
  });

  it('is not fooled by keys in strings, escapes or arrays of objects, and copes with any depth', () => {
    expect(duplicateKeys('{"a":"{\\"a\\":1,\\"a\\":2}","b":[{"a":1},{"a":1}],"c":"\\\\"}')).toEqual([]);
    const deep = '{"a":'.repeat(50_000) + '{"z":1,"z":2}' + '}'.repeat(50_000);
    expect(duplicateKeys(deep)).toHaveLength(1);
    // An earlier value of any shape is read back whole.
    const lists = '{"tools":[{"name":"read_file","x":{"a":"]}"}}],"tools" : [ ] }';
    expect(duplicateKeys(lists)).toEqual([{ pointer: '/tools', key: 'tools', offset: lists.lastIndexOf('"tools"'), earlier: [[{ name: 'read_file', x: { a: ']}' } }]] }]);
  });

  it('places an offset as line and column', () => {
    expect(lineAndColumn('{\n  "a": 1,\n  "a": 2\n}', 14)).toEqual({ line: 3, column: 3 });
  });
});
