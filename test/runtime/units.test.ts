import { describe, expect, it } from 'vitest';
import type { ServerDefinition, ToolValidators } from '../../src/runtime/api.js';
import { createServer } from '../../src/runtime/index.js';
import { describeIssues } from '../../src/runtime/protocol/jsonrpc.js';
import { cursorOffset } from '../../src/runtime/server/lists.js';
import { ServerCore } from '../../src/runtime/server/server.js';
import { compileUriTemplate } from '../../src/runtime/protocol/uri-template.js';
import { buildDefinition, handlers } from './fixtures/demo-server.js';

describe('URI templates', () => {
  it('matches {name} within one segment and decodes it', () => {
    const template = compileUriTemplate('weather://{city}/forecast/{day}');
    expect(template.match('weather://Paris/forecast/monday')).toEqual({ city: 'Paris', day: 'monday' });
    expect(template.match('weather://New%20York/forecast/x')).toEqual({ city: 'New York', day: 'x' });
    expect(template.match('weather://%E0%A4%A/forecast/x')).toEqual({ city: '%E0%A4%A', day: 'x' });
    expect(template.match('weather://a/b/forecast/monday')).toBeUndefined();
    expect(template.match('weather:///forecast/monday')).toBeUndefined();
    expect(template.match('weather://Paris/forecast/monday/extra')).toBeUndefined();
  });

  it('matches {+name} across slashes and treats regex characters literally', () => {
    expect(compileUriTemplate('file:///{+path}').match('file:///a/b/c.txt')).toEqual({ path: 'a/b/c.txt' });
    const literal = compileUriTemplate('x://a.b?{q}');
    expect(literal.match('x://a.b?1')).toEqual({ q: '1' });
    expect(literal.match('x://aXb?1')).toBeUndefined();
  });

  it('keeps variable names off the prototype', () => {
    const variables = compileUriTemplate('x://{__proto__}').match('x://polluted')!;
    expect(Object.getPrototypeOf(variables)).toBeNull();
    expect(variables['__proto__']).toBe('polluted');
  });

  it('rejects operators it cannot match', () => {
    expect(() => compileUriTemplate('search://{?q}')).toThrow(/not supported/);
    expect(() => compileUriTemplate('x://{a,b}')).toThrow(/not supported/);
    expect(() => compileUriTemplate('x://{a')).toThrow(/unbalanced/);
  });
});

describe('validation issue wording', () => {
  it('names the field and the reason, with allowed values', () => {
    expect(
      describeIssues([
        { instancePath: '/units', keyword: 'enum', message: 'must be equal to one of the allowed values', params: { allowedValues: ['celsius', 'fahrenheit'] } },
        { instancePath: '', keyword: 'additionalProperties', message: 'must NOT have additional properties', params: { additionalProperty: 'extra' } },
        { instancePath: '/kind', keyword: 'const', message: 'must be equal to constant', params: { allowedValue: 3 } },
      ]),
    ).toBe(
      "/units must be equal to one of the allowed values (celsius, fahrenheit); must NOT have additional properties ('extra'); /kind must be equal to constant (3)",
    );
  });

  it('caps the list and survives missing details', () => {
    const issue = { instancePath: '/a', keyword: 'type', message: 'must be string' };
    expect(describeIssues(Array(7).fill(issue))).toBe(`${Array(5).fill('/a must be string').join('; ')}; and 2 more`);
    expect(describeIssues([{ instancePath: '/b', keyword: 'format' }])).toBe('/b fails "format"');
    expect(describeIssues(null)).toBe('value does not match the schema');
  });
});

describe('createServer checks the definition', () => {
  const definition = (): ServerDefinition => buildDefinition(3);

  it('throws when a handler is missing', () => {
    const { echo: _echo, ...rest } = handlers.tools;
    expect(() => createServer(definition(), { ...handlers, tools: rest })).toThrow('No handler for tool echo');
    expect(() => createServer(definition(), { ...handlers, prompts: {} })).toThrow('No handler for prompt greet');
    expect(() => createServer(definition(), { ...handlers, resourceTemplates: {} })).toThrow(
      'No handler for resource template weather://{city}/current',
    );
  });

  it('does not find handlers on the prototype', () => {
    const withConstructor = definition();
    withConstructor.tools = [...withConstructor.tools, { name: 'constructor', inputSchema: { type: 'object' } }];
    withConstructor.toolBindings = { ...withConstructor.toolBindings, constructor: withConstructor.toolBindings['echo']! };
    expect(() => createServer(withConstructor, handlers)).toThrow('No handler for tool constructor');
  });

  it('requires validateOutput exactly for tools with an outputSchema', () => {
    const broken = definition();
    // This test's bindings carry their validators (no `load`).
    const { validateOutput: _dropped, ...binding } = broken.toolBindings['get_weather'] as ToolValidators & { name: string };
    broken.toolBindings = { ...broken.toolBindings, get_weather: binding };
    expect(() => createServer(broken, handlers)).toThrow(/validateOutput must be present exactly/);
  });

  it('throws when no protocol version is one the runtime speaks', () => {
    expect(() => createServer({ ...definition(), protocolVersions: ['2099-01-01'] }, handlers)).toThrow(/None of the definition's protocol versions/);
  });

  it('pages lists with a cursor on every page but the last', () => {
    const core = new ServerCore({ ...definition(), pageSize: 7 }, handlers, {});
    expect(JSON.parse(core.toolPages.page(0))).not.toHaveProperty('nextCursor');
    const empty = new ServerCore({ ...definition(), prompts: [], pageSize: 2 }, { ...handlers, prompts: {} }, {});
    expect(JSON.parse(empty.promptPages.page(0))).toEqual({ prompts: [] });
    const paged = new ServerCore({ ...definition(), pageSize: 2 }, handlers, {});
    const first = JSON.parse(paged.toolPages.page(0)) as { tools: unknown[]; nextCursor: string };
    expect(first.tools).toHaveLength(2);
    const second = JSON.parse(paged.toolPages.page(cursorOffset('tools', first.nextCursor)!)) as { tools: unknown[]; nextCursor: string };
    expect(second.tools).toHaveLength(2);
    expect(cursorOffset('tools', second.nextCursor)).toBe(4);
  });
});
