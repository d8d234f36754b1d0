// Rewrites schema/meta-*.validator.cjs and schema/compiler-knowledge.json (see src/load/meta-validators-source.ts).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { COMPILER_KNOWLEDGE_URL, META_VALIDATOR_URLS } from '../dist/load/meta-validator-paths.js';
import { compilerKnowledgeSource, metaValidatorSource } from '../dist/load/meta-validators-source.js';

for (const [dialect, url] of Object.entries(META_VALIDATOR_URLS)) {
  writeFileSync(url, metaValidatorSource(dialect));
  console.log(`wrote ${fileURLToPath(url)}`);
}
writeFileSync(COMPILER_KNOWLEDGE_URL, compilerKnowledgeSource());
console.log(`wrote ${fileURLToPath(COMPILER_KNOWLEDGE_URL)}`);
