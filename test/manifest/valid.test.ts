import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { loadManifest } from '../../src/pipeline/manifest.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

const coordinates = {
  type: 'object',
  properties: { lat: { type: 'number' }, lon: { type: 'number' } },
  required: ['lat', 'lon'],
};
const units = { type: 'string', enum: ['metric', 'imperial'] };

describe('a valid manifest with shared $defs and external schema files', async () => {
  const { model, warnings } = await loadManifest(fixture('valid/manifest.yaml'), { displayPath: 'valid/manifest.yaml' });
  const tool = (name: string) => {
    const found = model.tools.find((t) => t.name === name);
    if (!found) throw new Error(`no tool ${name}`);
    return found;
  };

  test('server identity, revisions newest first, no warnings', () => {
    expect(model.server).toEqual({ name: 'weather', version: '1.0.0', title: 'Weather', instructions: 'Ask for forecasts by city.' });
    expect(model.protocolVersions).toEqual(['2025-11-25', '2025-06-18']);
    expect(model.source).toBe('valid/manifest.yaml');
    expect(warnings).toEqual([]);
  });

  test('tools keep manifest order and get identifiers', () => {
    expect(model.tools.map((t) => [t.name, t.ids.pascal, t.ids.camel])).toEqual([
      ['get_forecast', 'GetForecast', 'getForecast'],
      ['list-cities', 'ListCities', 'listCities'],
      ['tree', 'Tree', 'tree'],
    ]);
  });

  test('shared $defs are copied into the schema that uses them, with only what it uses', () => {
    expect(tool('get_forecast').inputSchema).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', 'x-mcp-header': 'City' },
        days: { type: 'integer', minimum: 1, maximum: 14 },
        units: { $ref: '#/$defs/Units' },
      },
      required: ['city'],
      $defs: { Units: units },
    });
    expect(tool('get_forecast').headers).toEqual([{ path: ['city'], header: 'City' }]);
  });

  test('external files and their own definitions are bundled, definitions sorted by name', () => {
    const output = tool('get_forecast').outputSchema!;
    expect(output).toEqual({
      type: 'object',
      properties: {
        location: { $ref: '#/$defs/location' },
        days: { type: 'array', items: { $ref: '#/$defs/Day' } },
      },
      required: ['location', 'days'],
      $defs: {
        Coordinates: coordinates,
        Day: {
          type: 'object',
          properties: { date: { type: 'string', format: 'date' }, high: { type: 'number' }, units: { $ref: '#/$defs/Units' } },
        },
        Units: units,
        // The file's $schema, $id and $defs stay behind: its references now point at siblings.
        location: { type: 'object', properties: { name: { type: 'string' }, coordinates: { $ref: '#/$defs/Coordinates' } } },
      },
    });
    expect(Object.keys(output.$defs as object)).toEqual(['Coordinates', 'Day', 'Units', 'location']);
  });

  test('an inputSchema that is only a $ref becomes its target, so the root says type: object', () => {
    expect(tool('list-cities').inputSchema).toEqual({
      type: 'object',
      description: 'Filters for the city list.',
      properties: { country: { type: 'string' }, near: { $ref: '#/$defs/Coordinates' } },
      $defs: { Coordinates: coordinates },
    });
  });

  test('recursive schemas refer to themselves inside the bundle', () => {
    expect(tool('tree').inputSchema).toEqual({
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      $defs: {
        Node: {
          type: 'object',
          properties: { value: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
        },
      },
    });
  });

  test('wire entries are exactly what tools/list sends, keys in protocol order', () => {
    const wire = tool('get_forecast').wire;
    expect(Object.keys(wire)).toEqual(['name', 'description', 'inputSchema', 'outputSchema', 'annotations']);
    expect(wire.inputSchema).toBe(tool('get_forecast').inputSchema);
    expect(wire.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
    expect(tool('list-cities').wire).toEqual({ name: 'list-cities', title: 'List cities', inputSchema: tool('list-cities').inputSchema });
  });

  test('every bundled schema compiles on its own and validates what it should', () => {
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    const forecast = ajv.compile(tool('get_forecast').outputSchema!);
    const good = { location: { name: 'Oslo', coordinates: { lat: 59.9, lon: 10.7 } }, days: [{ date: '2026-01-02', high: 3, units: 'metric' }] };
    expect(forecast(good)).toBe(true);
    expect(forecast({ ...good, days: [{ date: 'tomorrow', units: 'kelvin' }] })).toBe(false);
    const tree = ajv.compile(tool('tree').inputSchema);
    expect(tree({ root: { value: 'a', children: [{ value: 'b', children: [] }] } })).toBe(true);
    expect(tree({ root: { value: 'a', children: [{ value: 1 }] } })).toBe(false);
  });

  test('resources, templates and prompts', () => {
    expect(model.resources).toEqual([
      {
        uri: 'weather://stations',
        name: 'stations',
        ids: { pascal: 'Stations', camel: 'stations' },
        wire: { uri: 'weather://stations', name: 'stations', mimeType: 'application/json' },
      },
    ]);
    expect(model.resourceTemplates).toEqual([
      {
        uriTemplate: 'weather://forecast/{city}',
        name: 'forecast',
        ids: { pascal: 'Forecast', camel: 'forecast' },
        variables: ['city'],
        wire: { uriTemplate: 'weather://forecast/{city}', name: 'forecast' },
      },
    ]);
    expect(model.prompts).toEqual([
      {
        name: 'plan-trip',
        ids: { pascal: 'PlanTrip', camel: 'planTrip' },
        arguments: [
          { name: 'city', required: true },
          { name: 'days', required: false },
        ],
        wire: { name: 'plan-trip', arguments: [{ name: 'city', required: true }, { name: 'days' }] },
      },
    ]);
  });
});
