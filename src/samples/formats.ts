/**
 * Strings for the JSON Schema formats the generated validators check (ajv-formats' full set and
 * the standard formats mcp-gen adds). Each builder makes a value its format accepts.
 */
import type { Random } from './prng.js';

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const WORDS = ['alpha', 'bravo', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'harbor', 'iris', 'juniper', 'kestrel', 'lumen', 'meadow', 'north', 'orbit', 'pine', 'quartz', 'river', 'stone', 'tide'];

export function word(random: Random): string {
  return random.pick(WORDS);
}

function date(r: Random): string {
  return `${r.int(2000, 2030)}-${pad(r.int(1, 12))}-${pad(r.int(1, 28))}`;
}
function time(r: Random): string {
  return `${pad(r.int(0, 23))}:${pad(r.int(0, 59))}:${pad(r.int(0, 59))}Z`;
}
function hex(r: Random, digits: number): string {
  let out = '';
  for (let i = 0; i < digits; i++) out += '0123456789abcdef'[r.int(0, 15)];
  return out;
}
function hostname(r: Random): string {
  return `${word(r)}${r.int(1, 99)}.example.com`;
}

const FORMATS: Readonly<Record<string, (r: Random) => string>> = {
  'date-time': (r) => `${date(r)}T${time(r)}`,
  date,
  time,
  duration: (r) => `P${r.int(1, 30)}DT${r.int(1, 23)}H`,
  email: (r) => `${word(r)}${r.int(1, 99)}@example.com`,
  'idn-email': (r) => `${word(r)}${r.int(1, 99)}@example.com`,
  hostname,
  'idn-hostname': hostname,
  ipv4: (r) => `${r.int(1, 223)}.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`,
  ipv6: (r) => `2001:db8::${hex(r, 4)}:${hex(r, 4)}`,
  uri: (r) => `https://${hostname(r)}/${word(r)}`,
  'uri-reference': (r) => `/${word(r)}/${r.int(1, 999)}`,
  iri: (r) => `https://${hostname(r)}/${word(r)}`,
  'iri-reference': (r) => `/${word(r)}/${r.int(1, 999)}`,
  url: (r) => `https://${hostname(r)}/${word(r)}`,
  'uri-template': (r) => `https://${hostname(r)}/${word(r)}/{id}`,
  uuid: (r) => `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-${'89ab'[r.int(0, 3)]}${hex(r, 3)}-${hex(r, 12)}`,
  'json-pointer': (r) => `/${word(r)}/${r.int(0, 9)}`,
  'relative-json-pointer': (r) => `${r.int(0, 3)}/${word(r)}`,
  regex: () => '^[a-z]+$',
  byte: (r) => btoa(word(r)),
  password: (r) => `${word(r)}-${hex(r, 6)}`,
  binary: (r) => word(r),
};

/** A value of `format`, or undefined for a format no validator checks (any string will do). */
export function formatSample(format: string, random: Random): string | undefined {
  return Object.hasOwn(FORMATS, format) ? (FORMATS[format] as (r: Random) => string)(random) : undefined;
}
