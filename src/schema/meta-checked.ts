/**
 * Tool schemas the manifest loader found valid against the 2020-12 meta-schema, by identity. The
 * validator emitter (src/emit/server/index.ts) compiles such a schema without checking it against
 * the meta-schema again: in a cold 1,000-tool run that second check was a tenth of the validators'
 * compile time. Only the very object that was checked counts: a copy, a draft-07 schema converted
 * to 2020-12 or a schema from anywhere else (a snapshot, a test) is checked again as before.
 */

const checked = new WeakSet<object>();

/** Called by the loader for a schema whose 2020-12 meta-schema check found nothing. */
export function markMetaChecked(schema: object): void {
  checked.add(schema);
}

export function isMetaChecked(schema: object): boolean {
  return checked.has(schema);
}
