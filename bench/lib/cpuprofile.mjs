// Summaries of V8 CPU profiles (`node --cpu-prof`): self time by file and by function.
import path from 'node:path';
import { repoRoot } from './paths.mjs';

/**
 * @param {{ nodes: { id: number, callFrame: { functionName: string, url: string, lineNumber: number } }[], samples: number[], timeDeltas: number[] }} profile
 * @param {{ top: number, perCall?: number, title: string }} options  perCall: divide times by this many calls
 */
export function formatProfile(profile, { top, perCall, title }) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map();
  const byFile = new Map();
  for (const [id, micros] of selfMicros) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const where = url === '' ? '' : path.relative(repoRoot, url.replace(/^file:\/\//, ''));
    const fn = `${where || '(native)'}:${lineNumber + 1} ${functionName || '(anonymous)'}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros);
    const fileKey = where || `(${functionName || 'native'})`;
    byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + micros);
  }
  const amount = (micros) =>
    perCall === undefined
      ? `${(micros / 1000).toFixed(1).padStart(8)} ms`
      : `${(micros / Math.max(perCall, 1)).toFixed(2).padStart(8)} µs/call`;
  const lines = [`${title}: ${(total / 1000).toFixed(0)} ms sampled on the main thread`];
  for (const [heading, map] of [
    ['self time by file', byFile],
    ['self time by function', byFunction],
  ]) {
    lines.push('', heading);
    for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      lines.push(`${((100 * micros) / total).toFixed(1).padStart(5)}%  ${amount(micros)}  ${key}`);
    }
  }
  return lines.join('\n') + '\n';
}
