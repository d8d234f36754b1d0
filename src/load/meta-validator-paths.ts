/** Where the precompiled meta-schema validators and the compiler's knowledge live (from src/load and dist/load alike). */
export const META_VALIDATOR_URLS = {
  '2020-12': new URL('../../schema/meta-2020-12.validator.cjs', import.meta.url),
  'draft-07': new URL('../../schema/meta-draft-07.validator.cjs', import.meta.url),
} as const;
export const COMPILER_KNOWLEDGE_URL = new URL('../../schema/compiler-knowledge.json', import.meta.url);
