// The three servers under test, each started directly with node (no npm or shell in between, so the
// spawned pid is the server's own process and /proc reads measure the server alone).
import path from 'node:path';
import { repoRoot } from './paths.mjs';

const node = process.execPath;
const at = (...parts) => path.join(repoRoot, ...parts);

export const SERVERS = {
  floor: { name: 'floor', command: node, args: [at('bench', 'floor', 'server.mjs')], cwd: repoRoot },
  sdk: { name: 'sdk', command: node, args: [at('bench', 'sdk', 'server.mjs')], cwd: repoRoot },
};
