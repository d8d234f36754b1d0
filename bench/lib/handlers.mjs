// The workload's two tools, as plain functions shared by the floor and SDK servers. Each call builds
// a fresh result from its arguments (formulas and key order from the workload README).

const CONDITIONS = [
  'Sunny',
  'Partly cloudy',
  'Overcast',
  'Light rain',
  'Thunderstorms',
  'Fog',
  'Snow',
];
const TAGS = ['protocol', 'json-rpc', 'stdio', 'http', 'schema', 'tools', 'server', 'client'];

/** @param {{ location: string, units?: 'celsius' | 'fahrenheit' }} args */
export function getWeather({ location, units }) {
  let c = 12 + (location.length % 17) + 0.5;
  if (units === 'fahrenheit') c = (c * 9) / 5 + 32;
  return {
    temperature: c,
    conditions: CONDITIONS[location.length % 7],
    humidity: 40 + (location.charCodeAt(0) % 50),
  };
}

/** @param {{ query: string, limit?: number }} args */
export function search({ query, limit }) {
  const n = limit ?? 50;
  const results = [];
  for (let i = 0; i < n; i++) {
    results.push({
      docId: 'doc-' + i + '-' + query.length,
      title: 'Result ' + (i + 1) + ' for ' + query,
      url: 'https://example.com/docs/' + i + '?q=' + query.length,
      snippet:
        'This document discusses ' +
        query +
        ' in section ' +
        i +
        '; it matched ' +
        (n - i) +
        ' terms of the query.',
      score: 1 - i / 64,
      rank: i + 1,
      tags: [TAGS[i % 8], TAGS[(i + 3) % 8], TAGS[(i + 5) % 8]],
      published: (i & 1) === 0,
    });
  }
  return { query, total: n, results };
}
