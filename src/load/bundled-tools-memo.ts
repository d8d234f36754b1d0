import { createHash } from 'node:crypto';
import { isMetaChecked, markMetaChecked } from '../schema/meta-checked.js';
import type { SchemaObject } from '../schema/keywords.js';

/**
 * A tool's bundled schemas kept from the last run (the output folder's unit cache), so a warm run
 * neither bundles nor checks again the tools that did not change: at 1,000 tools that is most of
 * loading the manifest. The key is the tool as written and everything of the manifest but its
 * tools (its shared `$defs`, the revisions it serves, …): all that bundling and checking a tool
 * reads. Only a tool that bundled cleanly is kept: no problem, no warning, no `$ref` to another
 * file (whose text the key would not hold), so a reused tool has nothing to report. The loader
 * uses it only for a manifest whose values survive JSON text exactly.
 */

/** The part of the unit cache this needs: a lookup (what it finds is kept for the next run), and a store. */
export interface Recall {
  recall(kind: string, input: string): string | undefined;
  put(kind: string, input: string, value: string): void;
}

const KIND = 'bundled-tool';

/** A `$ref` whose value does not start with `#` leaves the manifest (a file, a URL). */
const REF_OUT_OF_MANIFEST = /"\$ref":"(?!#)/;

interface Kept {
  /** The bundled inputSchema and outputSchema, where the tool has them. */
  schemas: { inputSchema?: SchemaObject; outputSchema?: SchemaObject };
  /** Which of them the loader found valid against the 2020-12 meta-schema (meta-checked.ts). */
  metaChecked: string[];
}

export class BundledToolsMemo {
  /** undefined when the manifest outside its tools refers to another file: nothing is kept then. */
  private readonly context: string | undefined;

  constructor(
    private readonly recall: Recall,
    manifest: SchemaObject,
    options: { allowOutside: boolean; servesStateless: boolean },
  ) {
    const text = JSON.stringify([options, { ...manifest, tools: null }]);
    // Its hash stands for it in each tool's key: the text may be long, and there are many tools.
    this.context = REF_OUT_OF_MANIFEST.test(text) ? undefined : createHash('sha256').update(text).digest('hex');
  }

  /** The key of a tool, or undefined when it cannot be kept. */
  keyOf(tool: SchemaObject): string | undefined {
    if (this.context === undefined) return undefined;
    const text = JSON.stringify(tool);
    return REF_OUT_OF_MANIFEST.test(text) ? undefined : `${this.context}\0${text}`;
  }

  /** The tool's bundled schemas from the last run (kept for the next), or undefined. */
  reuse(key: string): Kept['schemas'] | undefined {
    const value = this.recall.recall(KIND, key);
    if (value === undefined) return undefined;
    const kept = JSON.parse(value) as Kept;
    for (const name of kept.metaChecked) {
      const schema = kept.schemas[name as keyof Kept['schemas']];
      if (schema !== undefined) markMetaChecked(schema);
    }
    return kept.schemas;
  }

  /** Keeps a tool that bundled and checked cleanly. */
  keep(key: string, schemas: Kept['schemas']): void {
    const metaChecked = Object.entries(schemas).flatMap(([name, schema]) => (schema !== undefined && isMetaChecked(schema) ? [name] : []));
    this.recall.put(KIND, key, JSON.stringify({ schemas, metaChecked } satisfies Kept));
  }
}
