/** Types of make-manifest.mjs for the tests that build a manifest with it. */
export interface ScaleManifestOptions {
  tools?: number;
  seed?: number;
  /** Tool index → the variant it takes (0: the original). */
  changed?: Record<number, number>;
}
export function makeManifest(options?: ScaleManifestOptions): { server: object; tools: object[]; $defs: object };
export function manifestText(options?: ScaleManifestOptions): string;
export function makeTool(seed: number, index: number, variant?: number): object;
