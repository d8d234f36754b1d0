// Types for make-manifest.mjs, for the tests that build a scale manifest.
export function manifestText(options?: { tools?: number; seed?: number; changed?: Record<number, number> }): string;
