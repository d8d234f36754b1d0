import { recordSchemaDigest } from '../schema/digest.js';
import { survivesJson } from './json-exact.js';
import { isMetaChecked, markMetaChecked } from '../schema/meta-checked.js';
import type { SchemaObject } from '../schema/keywords.js';
import { sha256Hex } from '../schema/sha256.js';

/**
 * A tool's bundled schemas kept from the last run (the output folder's unit cache), so a warm run
 * neither bundles nor checks again the tools that did not change: at 1,000 tools that is most of
 * loading the manifest. The key is the tool as written and everything of the manifest but its
 * tools (its shared `$defs`, the revisions it serves, …): all that bundling and checking a tool
 * reads. Only a tool that bundled cleanly is kept: no problem, no warning, no `$ref` but into
 * shared definitions (another file's text, another tool, are not in the key), so a reused tool has
 * nothing to report. Only values that survive JSON text exactly are keyed (json-exact.ts): a YAML
 * `.inf` and a `null` would have the same key, and a kept definition would come back `null`.
 */

/** The part of the unit cache this needs: a lookup (what it finds is kept for the next run), and a store. */
export interface Recall {
  recall(kind: string, input: string): string | undefined;
  put(kind: string, input: string, value: string): void;
}

const KIND = 'bundled-tool';

/**
 * A `$ref` anywhere but into shared definitions: to another file or a URL, or into the manifest at
 * large (`#/tools/…` reads another tool, which this key does not hold). Such a tool is not kept.
 */
const REF_BEYOND_DEFINITIONS = /"\$ref":"(?!#\/\$defs\/|#\/definitions\/)/;

/**
 * How a bundled schema is kept. Bundling nearly always leaves a tool schema as written and adds the
 * shared definitions it uses under its `$defs` (or `definitions`): kept as that recipe, the
 * definitions as text (the same few texts for every tool, each parsed once per run and shared, as
 * schemas are never changed once loaded). Anything else is kept whole.
 */
type KeptSchema = { asWritten: true } | { added: { key: string; definitions: [string, string][] } } | { whole: SchemaObject };

interface Kept {
  schemas: { inputSchema?: KeptSchema; outputSchema?: KeptSchema };
  /** Each schema's digest (schema/digest.ts), so the emitters' cache keys need not write it out again. */
  digests?: { inputSchema?: string; outputSchema?: string };
  /** Which of them the loader found valid against the 2020-12 meta-schema (meta-checked.ts). */
  metaChecked: string[];
}

type Schemas = { inputSchema?: SchemaObject; outputSchema?: SchemaObject };

const SCHEMA_KEYS = ['inputSchema', 'outputSchema'] as const;

export class BundledToolsMemo {
  /** undefined when the manifest outside its tools refers to anything but its definitions: nothing is kept then. */
  private readonly context: string | undefined;
  /** Definition texts parsed this run: one object per text, shared by the tools that add it. */
  private readonly parsed = new Map<string, SchemaObject>();

  constructor(
    private readonly recall: Recall,
    manifest: SchemaObject,
    options: { allowOutside: boolean; servesStateless: boolean },
  ) {
    const around = { ...manifest, tools: null };
    const text = JSON.stringify([options, around]);
    // Its hash stands for it in each tool's key: the text may be long, and there are many tools.
    this.context = REF_BEYOND_DEFINITIONS.test(text) || !survivesJson(around) ? undefined : sha256Hex(text);
  }

  /** The key of a tool, or undefined when it cannot be kept. */
  keyOf(tool: SchemaObject): string | undefined {
    if (this.context === undefined || !survivesJson(tool)) return undefined;
    const text = JSON.stringify(tool);
    return REF_BEYOND_DEFINITIONS.test(text) ? undefined : `${this.context}\0${text}`;
  }

  /** The tool's bundled schemas from the last run (kept for the next), or undefined. */
  reuse(key: string, tool: SchemaObject): Schemas | undefined {
    const value = this.recall.recall(KIND, key);
    if (value === undefined) return undefined;
    const kept = JSON.parse(value) as Kept;
    const schemas: Schemas = {};
    for (const name of SCHEMA_KEYS) {
      const recipe = kept.schemas[name];
      if (recipe === undefined) continue;
      const written = tool[name] as SchemaObject;
      const schema = 'whole' in recipe ? recipe.whole : 'added' in recipe ? this.rebuild(written, recipe.added) : written;
      if (kept.metaChecked.includes(name)) markMetaChecked(schema);
      const digest = kept.digests?.[name];
      if (digest !== undefined) recordSchemaDigest(schema, digest);
      schemas[name] = schema;
    }
    return schemas;
  }

  /** Keeps a tool that bundled and checked cleanly. */
  keep(key: string, tool: SchemaObject, schemas: Schemas): void {
    const kept: Kept = { schemas: {}, metaChecked: [], digests: {} };
    for (const name of SCHEMA_KEYS) {
      const schema = schemas[name];
      if (schema === undefined) continue;
      const text = JSON.stringify(schema);
      kept.schemas[name] = this.recipe(tool[name] as SchemaObject, schema, text) ?? { whole: schema };
      (kept.digests as Record<string, string>)[name] = sha256Hex(text);
      if (isMetaChecked(schema)) kept.metaChecked.push(name);
    }
    this.recall.put(KIND, key, JSON.stringify(kept));
  }

  /** The schema as written with the definitions added under `key`. */
  private rebuild(written: SchemaObject, added: { key: string; definitions: [string, string][] }): SchemaObject {
    const definitions: SchemaObject = {};
    for (const [name, text] of added.definitions) {
      let definition = this.parsed.get(text);
      if (definition === undefined) {
        definition = JSON.parse(text) as SchemaObject;
        this.parsed.set(text, definition);
      }
      definitions[name] = definition;
    }
    return { ...written, [added.key]: definitions };
  }

  /** The recipe that rebuilds `bundled` from `written` (proven here, to the byte), or undefined when bundling did more than add definitions. */
  private recipe(written: SchemaObject, bundled: SchemaObject, bundledText: string): KeptSchema | undefined {
    if (JSON.stringify(written) === bundledText) return { asWritten: true };
    for (const key of ['$defs', 'definitions']) {
      const definitions = bundled[key];
      if (written[key] !== undefined || definitions === null || typeof definitions !== 'object' || Array.isArray(definitions)) continue;
      const added: { key: string; definitions: [string, string][] } = {
        key,
        definitions: Object.entries(definitions as SchemaObject).map(([name, definition]) => [name, JSON.stringify(definition)]),
      };
      // Proven on the spot: the rebuilt schema must be the bundled one, to the byte.
      return JSON.stringify(this.rebuild(written, added)) === bundledText ? { added } : undefined;
    }
    return undefined;
  }
}
