import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The shared workload folder (never copied into the repository). */
export const benchDataDir =
  process.env.MCP_BENCH_DIR ?? path.join(repoRoot, '..', 'shared', 'bench');
