#!/usr/bin/env node
// Rewrites src/runtime/** as the generator's prettier options print it, so `mcp-gen server` and
// `mcp-gen client` can copy the runtime byte for byte (src/write/runtime-format.ts). Needs a build.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unformattedRuntimeSources } from '../dist/write/runtime-format.js';

const runtimeDir = fileURLToPath(new URL('../src/runtime/', import.meta.url));
const drifted = await unformattedRuntimeSources(runtimeDir);
for (const { path, formatted } of drifted) writeFileSync(join(runtimeDir, path), formatted, 'utf8');
console.log(drifted.length === 0 ? 'src/runtime is prettier-clean' : `reformatted ${drifted.length} file(s) under src/runtime`);
