import { describe, expect, it } from 'vitest';
import { commentText, jsdoc, jsonValueExpression, stringLiteral } from '../../src/printer/escape.js';
import { assignNames, camelCase, isSafeIdentifier, pascalCase } from '../../src/printer/names.js';
import { SourceFile } from '../../src/printer/source-file.js';

describe('escaping', () => {
  it('never lets text close a comment or break a line', () => {
    expect(commentText('a */ export const pwn = 1; /* b')).toBe('a *\\/ export const pwn = 1; /* b');
    expect(jsdoc('x\u2028y\r\nz')).toBe('/**\n * x\n * y\n * z\n */\n');
    expect(jsdoc('  ')).toBe('');
    expect(jsdoc('one line')).toBe('/** one line */\n');
  });

  it('makes string literals that survive every character', () => {
    const nasty = 'q"\'`${x}\\\u2028\u2029';
    const literal = stringLiteral(nasty);
    expect(literal).not.toMatch(/[\u2028\u2029]/);
    expect(new Function(`return ${literal};`)()).toBe(nasty);
  });

  it('embeds values with __proto__ keys without losing them', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"a":[1,"*/"]}');
    const roundTrip = new Function(`return ${jsonValueExpression(value)};`)();
    expect(Object.keys(roundTrip)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('names', () => {
  it('converts wire names', () => {
    expect(pascalCase('get_weather')).toBe('GetWeather');
    expect(pascalCase('getHTTPStatus.v2')).toBe('GetHTTPStatusV2');
    expect(pascalCase('1abc')).toBe('_1abc');
    expect(camelCase('class')).toBe('class_');
    expect(isSafeIdentifier('constructor')).toBe(false);
  });

  it('gives colliding names distinct identifiers, deterministically and case-insensitively', () => {
    const names = assignNames(['get_user', 'get-user', 'GetUser', 'other']);
    expect([...names.values()].map((n) => [n.wire, n.pascal, n.camel])).toEqual([
      ['GetUser', 'GetUser', 'getUser'],
      ['get-user', 'GetUser_2', 'getUser_2'],
      ['get_user', 'GetUser_3', 'getUser_3'],
      ['other', 'Other', 'other'],
    ]);
    expect(names.get('get_user')?.renamedBecause).toMatch(/GetUser_3/);
    expect(assignNames(['get-user', 'get_user', 'GetUser', 'other'])).toEqual(names);
  });

  it('keeps reserved words out', () => {
    const names = assignNames(['object', 'string', 'promise']);
    expect(names.get('promise')?.pascal).toBe('Promise_2');
    expect(names.get('object')).toMatchObject({ pascal: 'Object_2', camel: 'object_2' });
    expect(names.get('string')).toMatchObject({ pascal: 'String_2', camel: 'string_2' });
  });

  it('never names a member `then`, which would make a module namespace or the client thenable', () => {
    expect(camelCase('then')).toBe('then_');
    expect(assignNames(['then', 'Then']).get('then')?.camel).not.toBe('then');
    expect(isSafeIdentifier('then')).toBe(false);
  });

  it('reads accented letters as their base letters, and still separates names that collide', () => {
    expect(pascalCase('résumé')).toBe('Resume');
    expect(camelCase('Ångström_unit')).toBe('angstromUnit');
    expect(camelCase('naïve-café')).toBe('naiveCafe');
    const names = assignNames(['resume', 'résumé']);
    expect([...names.values()].map((n) => [n.wire, n.camel])).toEqual([
      ['resume', 'resume'],
      ['résumé', 'resume_2'],
    ]);
  });
});

describe('SourceFile', () => {
  it('prints sorted imports, type-only imports separately, only what was declared', () => {
    const file = new SourceFile();
    file.importValue('b', './z.js');
    file.importType('T', './z.js');
    file.importValue('a', './z.js');
    file.importType('U', './a.js');
    file.push('export const x = 1;\n');
    expect(file.toString()).toBe(
      `import type { U } from "./a.js";\nimport type { T } from "./z.js";\nimport { a, b } from "./z.js";\n\nexport const x = 1;\n`,
    );
    expect(() => file.importValue('not valid', './y.js')).toThrow();
  });
});
