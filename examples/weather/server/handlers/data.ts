import type { Conditions, Units } from '../generated/types.js';

/**
 * The example's whole "weather service": a fixed list of stations and readings computed from the
 * location name, so every run answers the same without any network.
 */

export interface Station {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
}

export const STATIONS: readonly Station[] = [
  { id: 'lis', name: 'Lisbon', latitude: 38.72, longitude: -9.14 },
  { id: 'osl', name: 'Oslo', latitude: 59.91, longitude: 10.75 },
  { id: 'sgp', name: 'Singapore', latitude: 1.35, longitude: 103.82 },
];

/** Every value of the manifest's `conditions` enum (`Conditions` is generated from it). */
const CONDITIONS: readonly Conditions[] = ['sunny', 'cloudy', 'rain', 'snow', 'fog', 'wind'];

/** A small stable hash (FNV-1a) of the location, so the same place always gets the same weather. */
function seed(text: string): number {
  let hash = 0x811c9dc5;
  for (const char of text.toLowerCase()) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function toUnits(celsius: number, units: Units): number {
  const value = units === 'celsius' ? celsius : (celsius * 9) / 5 + 32;
  return Math.round(value * 10) / 10;
}

export interface Reading {
  celsius: number;
  conditions: Conditions;
  humidity: number;
}

/** The reading for `location` on day `offset` (0 = today). */
export function reading(location: string, offset: number): Reading {
  const s = seed(`${location}#${offset}`);
  const conditions = CONDITIONS[s % CONDITIONS.length] ?? 'sunny';
  const celsius = conditions === 'snow' ? -(s % 8) : 5 + (s % 25);
  return { celsius, conditions, humidity: 30 + (s % 60) };
}

/** `2025-06-01` plus `days`, as an ISO date; the example's calendar starts on a fixed day. */
export function dateAfter(days: number): string {
  return new Date(Date.UTC(2025, 5, 1 + days)).toISOString().slice(0, 10);
}
