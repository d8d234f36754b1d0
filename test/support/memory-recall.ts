import type { Recall } from '../../src/load/bundled-tools-memo.js';

/**
 * A recall over a plain map, counting what it gave back: of every kind, or of `counted` alone
 * (a YAML manifest's entries are kept beside its bundled tools, yaml-tools.ts).
 */
export function memoryRecall(counted?: string): Recall & { store: Map<string, string>; reused: number } {
  const store = new Map<string, string>();
  return {
    store,
    reused: 0,
    recall(kind, input) {
      const value = store.get(`${kind}\0${input}`);
      if (value !== undefined && (counted === undefined || kind === counted)) this.reused++;
      return value;
    },
    put(kind, input, value) {
      store.set(`${kind}\0${input}`, value);
    },
  };
}
