import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The workload's specification, committed under bench/workload/ (or `MCP_BENCH_DIR`). */
export const benchDataDir = process.env.MCP_BENCH_DIR ?? path.join(repoRoot, 'bench', 'workload');
