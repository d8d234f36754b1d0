import type { SearchOutput, ToolHandlers } from '../../generated/types.js';

const TAGS = ['protocol', 'json-rpc', 'stdio', 'http', 'schema', 'tools', 'server', 'client'];

/**
 * The tool "search".
 *
 * Search the document index; returns up to 50 structured results
 */
export const search: ToolHandlers['search'] = async ({ query, limit }) => {
  // The benchmark workload's formulas, built fresh on every call; keys in the specified order.
  const n = limit ?? 50;
  const results: SearchOutput['results'] = [];
  for (let i = 0; i < n; i++) {
    results.push({
      docId: `doc-${i}-${query.length}`,
      title: `Result ${i + 1} for ${query}`,
      url: `https://example.com/docs/${i}?q=${query.length}`,
      snippet: `This document discusses ${query} in section ${i}; it matched ${n - i} terms of the query.`,
      score: 1 - i / 64,
      rank: i + 1,
      tags: [TAGS[i % 8]!, TAGS[(i + 3) % 8]!, TAGS[(i + 5) % 8]!],
      published: (i & 1) === 0,
    });
  }
  return { structuredContent: { query, total: n, results } };
};
