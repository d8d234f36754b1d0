/** Where the manifest schema and its precompiled validator live; from src/load (tests) and dist/load (the published build) alike. */
export const MANIFEST_SCHEMA_URL = new URL('../../schema/manifest.schema.json', import.meta.url);
export const MANIFEST_VALIDATOR_URL = new URL('../../schema/manifest.validator.cjs', import.meta.url);
