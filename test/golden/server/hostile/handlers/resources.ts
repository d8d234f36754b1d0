import type { ResourceHandlers } from '../generated/types.js';

/** Reads each resource of the manifest, keyed by URI. */
export const resources: ResourceHandlers = {
  /** *\/ export const pwn = 8; /* */
  "file:///it's/*/$x?a=*/export/*": async (_uri, _context) => {
    throw new Error(
      "resource file:///it's/*/$x?a=*/export/* is not implemented yet: edit handlers/resources.ts",
    );
  },
  'urn:__proto__': async (_uri, _context) => {
    throw new Error('resource urn:__proto__ is not implemented yet: edit handlers/resources.ts');
  },
};
