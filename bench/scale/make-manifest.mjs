#!/usr/bin/env node
// Writes a deterministic manifest of N tools (default 1,000) for the scale benchmark and the cache
// tests: the same seed always gives the same bytes, so nothing this size is committed. Schemas vary
// the way API-wrapping servers do: nested objects, arrays of objects, enums, `$ref`s to shared
// definitions, patterns, formats, numeric bounds, optional output schemas.
//
//   node bench/scale/make-manifest.mjs [--tools N] [--seed S] [--out manifest.json]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

/** mulberry32: a small seeded generator, enough to vary shapes reproducibly. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOUNS = ['account', 'invoice', 'order', 'customer', 'ticket', 'project', 'repository', 'issue', 'user', 'team', 'report', 'campaign', 'shipment', 'product', 'payment', 'subscription', 'event', 'document', 'folder', 'message'];
const VERBS = ['get', 'list', 'create', 'update', 'delete', 'search', 'archive', 'restore', 'export', 'sync'];
const FIELDS = ['id', 'name', 'title', 'status', 'owner', 'createdAt', 'amount', 'currency', 'tags', 'priority', 'region', 'email', 'notes', 'limit', 'cursor', 'query', 'version', 'country', 'score', 'count'];

/** Shared definitions every tool may `$ref` (through the manifest's top-level `$defs`). */
const SHARED_DEFS = {
  currency: { type: 'string', enum: ['EUR', 'USD', 'GBP', 'JPY', 'CHF'] },
  status: { type: 'string', enum: ['draft', 'active', 'suspended', 'closed'], description: 'Lifecycle state.' },
  money: {
    type: 'object',
    properties: { amount: { type: 'number', minimum: 0 }, currency: { $ref: '#/$defs/currency' } },
    required: ['amount', 'currency'],
    additionalProperties: false,
  },
  page: {
    type: 'object',
    properties: { cursor: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 500 } },
    additionalProperties: false,
  },
  address: {
    type: 'object',
    properties: {
      street: { type: 'string' },
      city: { type: 'string', minLength: 1 },
      postcode: { type: 'string', pattern: '^[A-Z0-9 -]{3,10}$' },
      country: { type: 'string', pattern: '^[A-Z]{2}$' },
    },
    required: ['city', 'country'],
    additionalProperties: false,
  },
};
const SHARED = Object.keys(SHARED_DEFS);

/** One property schema of a kind picked by `rand`; `depth` bounds the nesting. */
function propertySchema(rand, depth, index) {
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const kind = Math.floor(rand() * (depth > 0 ? 10 : 7));
  switch (kind) {
    case 0:
      return { type: 'string', minLength: 1, maxLength: 64 + Math.floor(rand() * 200) };
    case 1:
      return { type: 'string', pattern: pick(['^[a-z][a-z0-9_-]*$', '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', '^[A-Z]{3}-\\d+$']) };
    case 2:
      return { type: 'integer', minimum: 0, maximum: 1000 * (1 + Math.floor(rand() * 9)) };
    case 3:
      return { type: 'string', enum: Array.from({ length: 2 + Math.floor(rand() * 4) }, (_, i) => `${pick(FIELDS)}_${index}_${i}`) };
    case 4:
      return { $ref: `#/$defs/${pick(SHARED)}` };
    case 5:
      return { type: 'boolean', default: rand() < 0.5 };
    case 6:
      return { type: 'string', format: pick(['date-time', 'email', 'uri', 'uuid']) };
    case 7:
      return { type: 'array', items: propertySchema(rand, depth - 1, index), maxItems: 50 };
    case 8:
      return objectSchema(rand, depth - 1, index, 2 + Math.floor(rand() * 3));
    default:
      return { type: 'array', items: objectSchema(rand, depth - 1, index, 2 + Math.floor(rand() * 3)) };
  }
}

function objectSchema(rand, depth, index, size) {
  const properties = {};
  const names = [...FIELDS].sort(() => rand() - 0.5).slice(0, size);
  for (const name of names) properties[name] = propertySchema(rand, depth, index);
  const required = names.filter(() => rand() < 0.4);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: rand() < 0.7 ? false : true };
}

/** One tool; `variant` changes only its own schemas (what "one tool changed" means in the bench). */
export function makeTool(seed, index, variant = 0) {
  const rand = random(seed * 1_000_003 + index * 7919 + variant * 104_729);
  const noun = NOUNS[index % NOUNS.length];
  const verb = VERBS[Math.floor(index / NOUNS.length) % VERBS.length];
  const name = `${verb}_${noun}_${index}`;
  const tool = {
    name,
    description: `${verb} a ${noun} (tool ${index}${variant ? `, variant ${variant}` : ''}).`,
    inputSchema: objectSchema(rand, 2, index, 3 + Math.floor(rand() * 5)),
  };
  if (rand() < 0.6) tool.outputSchema = objectSchema(rand, 2, index, 2 + Math.floor(rand() * 5));
  if (rand() < 0.3) tool.annotations = { readOnlyHint: verb === 'get' || verb === 'list' || verb === 'search' };
  return tool;
}

/** The whole manifest; `changed` maps a tool index to the variant it takes. */
export function makeManifest({ tools = 1000, seed = 16, changed = {} } = {}) {
  return {
    server: { name: `scale-${tools}`, version: '1.0.0', title: `Scale benchmark (${tools} tools)` },
    tools: Array.from({ length: tools }, (_, i) => makeTool(seed, i, changed[i] ?? 0)),
    $defs: SHARED_DEFS,
  };
}

export function manifestText(options) {
  return `${JSON.stringify(makeManifest(options), null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: { tools: { type: 'string', default: '1000' }, seed: { type: 'string', default: '16' }, out: { type: 'string', default: 'scale-manifest.json' } },
  });
  writeFileSync(values.out, manifestText({ tools: Number(values.tools), seed: Number(values.seed) }));
  process.stderr.write(`wrote ${values.out}\n`);
}
