// Rewrites schema/manifest.validator.cjs from schema/manifest.schema.json (see src/load/manifest-validator-source.ts).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MANIFEST_VALIDATOR_URL } from '../dist/load/manifest-validator-paths.js';
import { manifestValidatorSource } from '../dist/load/manifest-validator-source.js';

writeFileSync(MANIFEST_VALIDATOR_URL, manifestValidatorSource());
console.log(`wrote ${fileURLToPath(MANIFEST_VALIDATOR_URL)}`);
