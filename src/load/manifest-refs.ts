/**
 * The `$ref` sandbox and bundler for manifest schemas. A tool schema may refer to the manifest's
 * shared `$defs` (`#/$defs/X`) and to schema files next to the manifest (`./schemas/x.json`,
 * optionally `#/pointer`). Every definition a tool schema reaches is copied into that schema's own
 * `$defs` (or `definitions` for draft-07) and its `$ref`s rewritten, so each schema on the wire is
 * self-contained. Files must stay inside the manifest's folder (after resolving symlinks) unless the
 * user opts out; the network is never used.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from './diagnostics.js';
import { ANNOTATION_KEYWORDS, defineOwn, isSchemaObject as isObject, isSubschema, subschemaSlot } from '../schema/keywords.js';
import { parseInput } from './json-source.js';
import { LazyCopy, LazyList } from './lazy-copy.js';
import { patternVerdict } from './pattern-check.js';
import { diagnosticAt, formatOf, joinPointer, parsePointer } from './yaml-positions.js';
import type { SourceDocument } from './yaml-positions.js';

/** Limits that keep hostile or runaway input from exhausting memory or the stack. */
export const REF_LIMITS = {
  /** Nesting of schema objects plus `$ref` hops along one path. */
  maxDepth: 200,
  /** Schema and data nodes copied into one bundled schema. */
  maxNodesPerSchema: 100_000,
  /**
   * The same over every schema of the manifest together: generation time and memory grow with it
   * (docs/manifest.md gives what this bound costs), so a runaway manifest stops here with a clear error.
   */
  maxNodesPerManifest: 200_000,
  /** Schema files read through `$ref`. */
  maxFiles: 200,
  /** Bytes of one schema file, and of all of them together. */
  maxFileBytes: 4 * 1024 * 1024,
  maxTotalBytes: 16 * 1024 * 1024,
};

const DRAFT_07 = new Set(['http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-07/schema']);

export function isDraft07(schema: unknown): boolean {
  return isObject(schema) && typeof schema.$schema === 'string' && DRAFT_07.has(schema.$schema);
}

/** A document schemas can live in: the manifest itself or a referenced file. */
export interface SchemaFile {
  /** Absolute path as written (not symlink-resolved); relative refs resolve against its folder. */
  readonly path: string;
  readonly doc: SourceDocument;
}

/** Where a piece of a bundled schema came from, to point diagnostics at the user's text. */
export interface Origin {
  file: SchemaFile;
  pointer: string;
}

export interface BundledSchema {
  schema: { [key: string]: unknown };
  /** False when a reference could not be followed or a limit was hit; the problem is already reported. */
  complete: boolean;
  /** Maps a JSON pointer inside the bundled schema back to the user's file and pointer. */
  originOf(pointer: string): Origin;
}

type JsonObject = { [key: string]: unknown };

/** json-schema-to-typescript copies these into generated code verbatim: schemas are data, never code. */
const CODE_KEYWORDS = new Set(['tsType', 'tsEnumNames']);
/**
 * Ways of naming a schema other than by file and pointer; the bundler could not keep them meaningful.
 * A plain `$anchor` is kept as written (a `$ref` to an anchor is refused, so nothing depends on it):
 * 2026-07-28 clients expect tool schemas verbatim, anchors included.
 */
const UNSUPPORTED_KEYWORDS = new Set(['$dynamicAnchor', '$dynamicRef', '$recursiveRef', '$recursiveAnchor']);

/** Keys whose primitive values BundleJob.copy() still inspects. */
const KEYS_COPY_LOOKS_AT = new Set([...CODE_KEYWORDS, ...UNSUPPORTED_KEYWORDS, '$id', '$schema', '$defs', 'definitions', '$ref', 'pattern']);

function valueAt(root: unknown, pointer: string): { found: boolean; value: unknown } {
  return valueAtSegments(root, parsePointer(pointer));
}

function valueAtSegments(root: unknown, segments: readonly string[]): { found: boolean; value: unknown } {
  let value = root;
  for (const segment of segments) {
    if (Array.isArray(value) && /^(0|[1-9][0-9]*)$/.test(segment) && Number(segment) < value.length) {
      value = value[Number(segment)];
    } else if (isObject(value) && Object.hasOwn(value, segment)) {
      value = value[segment];
    } else {
      return { found: false, value: undefined };
    }
  }
  return { found: true, value };
}

/**
 * Where a node being copied sits: its pointer is built only when something asks for it (a message,
 * a `$ref`); building one for each of the tens of thousands of nodes of a large manifest cost more
 * than copying them.
 */
class Place implements Origin {
  private built: string | undefined;

  constructor(
    readonly file: SchemaFile,
    private readonly parent: Origin,
    private readonly key: string | number,
  ) {}

  get pointer(): string {
    this.built ??= joinPointer(this.parent.pointer, this.key);
    return this.built;
  }
}

/**
 * How a node lies to the tool schema being bundled: inside it, outside it, or outside it but
 * above it in the same file (an odd `$ref` to an ancestor), where a child may lead back inside
 * ('reentered': inside, but copied, since the root's own copy already holds those nodes).
 * Children inherit it, so only the 'above' case ever compares pointers.
 */
type Relation = 'inside' | 'outside' | 'above' | 'reentered';

function isWithin(pointer: string, base: string): boolean {
  return pointer === base || pointer.startsWith(base + '/');
}

/** A JSON pointer as a URI fragment: percent-encodes what RFC 3986 does not allow there. */
function fragmentOf(pointer: string): string {
  return '#' + pointer.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/gu, (c) => encodeURIComponent(c));
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * Reads schema files for one manifest and bundles its tool schemas. Problems and warnings
 * accumulate; nothing is thrown for user mistakes.
 */
export class SchemaBundler {
  readonly problems: Diagnostic[] = [];
  readonly warnings: Diagnostic[] = [];
  private readonly files = new Map<string, SchemaFile | string | undefined>();
  /** Every schema file read, as its `$ref` named it (absolute), for the ledger's inputs. */
  readonly filesRead: string[] = [];
  private totalBytes = 0;
  /** Nodes copied by every bundle job so far (REF_LIMITS.maxNodesPerManifest). */
  totalNodes = 0;
  manifestTooLarge = false;
  private readonly rootDir: string;

  constructor(
    private readonly manifest: SchemaFile,
    /** `inputFiles` collects every schema file a `$ref` names inside the sandbox, read or not. */
    private readonly options: { allowOutside: boolean; displayDir: string; inputFiles?: Set<string> },
  ) {
    const dir = path.dirname(manifest.path);
    let rootDir = dir;
    try {
      rootDir = realpathSync(dir);
    } catch {
      // A folder that cannot be resolved is taken as it is named.
    }
    this.rootDir = rootDir;
  }

  /** Bundles the schema at `pointer` in the manifest into a self-contained copy. */
  bundle(pointer: string): BundledSchema {
    // Synchronous, schema files included: a manifest's tools hold thousands of schema nodes, and an
    // awaited copy of each cost more than all the reads.
    const job = new BundleJob(this, { file: this.manifest, pointer });
    return job.run();
  }

  private lastToolRoot: { origin: Origin; found: boolean; value: unknown } | undefined;
  /** Pointers split into segments: the same few `$ref` fragments recur in every tool. Read-only. */
  private readonly segments = new Map<string, readonly string[]>();

  segmentsOf(pointer: string): readonly string[] {
    let found = this.segments.get(pointer);
    if (found === undefined) {
      found = parsePointer(pointer);
      this.segments.set(pointer, found);
    }
    return found;
  }

  /** valueAt() with the pointer's segments kept. */
  valueAt(root: unknown, pointer: string): { found: boolean; value: unknown } {
    return valueAtSegments(root, this.segmentsOf(pointer));
  }

  /** The tool schema at `toolRoot`, looked up once for the many `$ref`s of one bundle job. */
  private toolRootValue(toolRoot: Origin): { found: boolean; value: unknown } {
    if (this.lastToolRoot?.origin !== toolRoot) this.lastToolRoot = { origin: toolRoot, ...valueAt(this.manifest.doc.value, toolRoot.pointer) };
    return this.lastToolRoot;
  }

  /** Resolves one `$ref` found at `at`; reports and returns undefined when it cannot be followed. */
  resolve(ref: unknown, at: Origin, toolRoot: Origin): Origin | undefined {
    const fail = (message: string, hint?: string): undefined => {
      this.problems.push(diagnosticAt(at.file.doc, joinPointer(at.pointer, '$ref'), message, hint));
      return undefined;
    };
    if (typeof ref !== 'string') return fail('$ref must be a string');
    const hash = ref.indexOf('#');
    const location = hash < 0 ? ref : ref.slice(0, hash);
    let fragment = hash < 0 ? '' : ref.slice(hash + 1);
    try {
      fragment = decodeURIComponent(fragment);
    } catch {
      return fail(`$ref '${ref}' has a malformed percent-encoding`);
    }
    if (fragment !== '' && !fragment.startsWith('/')) {
      return fail(`$ref '${ref}' uses an anchor, which is not supported`, 'refer to definitions by JSON pointer, like #/$defs/Name');
    }

    if (location === '') {
      // Inside an inline tool schema, `#…` means the schema itself first (as in plain JSON
      // Schema), then the manifest, whose `$defs` are shared.
      if (at.file === this.manifest && toolRoot.file === this.manifest && isWithin(at.pointer, toolRoot.pointer)) {
        const rootValue = this.toolRootValue(toolRoot);
        if (rootValue.found && this.valueAt(rootValue.value, fragment).found) return { file: this.manifest, pointer: toolRoot.pointer + fragment };
      }
      if (at.file === this.manifest && fragment === '') {
        return fail(`$ref '${ref}' refers to the whole manifest`, 'refer to a shared schema, like #/$defs/Name');
      }
      if (!this.valueAt(at.file.doc.value, fragment).found) {
        return fail(`$ref '${ref}' points to nothing`, at.file === this.manifest ? 'shared schemas live under $defs at the top of the manifest' : undefined);
      }
      return { file: at.file, pointer: fragment };
    }

    if (/^https?:/i.test(location)) {
      return fail(`$ref '${ref}' points to the network, which mcp-gen never reads`, 'save the schema next to the manifest and refer to it by relative path, like ./schemas/name.json');
    }
    if (SCHEME.test(location) && !/^[A-Za-z]:[\\/]/.test(location)) {
      return fail(`$ref '${ref}' uses an unsupported URI scheme`, 'refer to schema files by relative path, like ./schemas/name.json');
    }
    let relative: string;
    try {
      relative = decodeURIComponent(location);
    } catch {
      return fail(`$ref '${ref}' has a malformed percent-encoding`);
    }
    const target = path.resolve(path.dirname(at.file.path), relative);
    const rootDir = this.rootDir;
    const outsideHint = 'keep schema files inside the manifest folder, or pass --allow-outside-refs';
    if (!this.options.allowOutside && !isInside(target, path.dirname(this.manifest.path)) && !isInside(target, rootDir)) {
      return fail(`$ref '${ref}' leaves the manifest's folder`, outsideHint);
    }
    this.options.inputFiles?.add(target);
    let real: string;
    try {
      real = realpathSync(target);
    } catch {
      return fail(`$ref '${ref}' points to a file that does not exist`);
    }
    if (!this.options.allowOutside && !isInside(real, rootDir)) {
      return fail(`$ref '${ref}' leaves the manifest's folder through a symbolic link`, outsideHint);
    }
    this.options.inputFiles?.add(real);
    const file = this.load(target, real);
    if (typeof file === 'string') return fail(`$ref '${ref}' ${file}`);
    if (!file) return undefined;
    if (!this.valueAt(file.doc.value, fragment).found) {
      return fail(`$ref '${ref}' points to nothing: the file has no ${fragment}`);
    }
    return { file, pointer: fragment };
  }

  /**
   * Reads and parses a schema file once. A string explains why it cannot be used; undefined means
   * it did not parse and its own problems are already reported.
   */
  private load(target: string, real: string): SchemaFile | string | undefined {
    if (this.files.has(real)) return this.files.get(real);
    const loading = ((): SchemaFile | string | undefined => {
      if (this.files.size >= REF_LIMITS.maxFiles) return `would read more than ${REF_LIMITS.maxFiles} schema files`;
      let text: string;
      try {
        const info = statSync(real);
        if (!info.isFile()) return 'does not name a file';
        if (info.size > REF_LIMITS.maxFileBytes) return `names a file larger than ${REF_LIMITS.maxFileBytes} bytes`;
        this.totalBytes += info.size;
        if (this.totalBytes > REF_LIMITS.maxTotalBytes) return `would read more than ${REF_LIMITS.maxTotalBytes} bytes of schema files`;
        text = readFileSync(real, 'utf8');
        this.filesRead.push(target);
      } catch (error) {
        return `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
      }
      const display = toDisplayPath(path.join(this.options.displayDir, path.relative(path.dirname(this.manifest.path), target)));
      const parsed = parseInput(text, display, formatOf(target));
      this.problems.push(...parsed.problems);
      this.warnings.push(...parsed.warnings);
      return parsed.document ? { path: target, doc: parsed.document } : undefined;
    })();
    this.files.set(real, loading);
    return loading;
  }
}

function isInside(target: string, dir: string): boolean {
  const relative = path.relative(dir, target);
  return relative === '' || (relative !== '..' && !relative.startsWith('..' + path.sep) && !path.isAbsolute(relative));
}

function toDisplayPath(p: string): string {
  return p.split(path.sep).join('/');
}

/** One bundled schema in the making. */
class BundleJob {
  private readonly defsKey: '$defs' | 'definitions';
  /** Target (`file\0pointer`) → the name of its bundled definition. */
  private readonly names = new Map<string, string>();
  private readonly usedNames = new Set<string>();
  private readonly defs = new Map<string, { schema: unknown; origin: Origin }>();
  private nodes = 0;
  private tooLarge = false;
  private complete = true;
  /** Whether copy() may share the tool's own nodes (off while a root `$ref`'s target is inlined). */
  private sharing = true;
  private readonly rootValue: unknown;

  constructor(
    private readonly bundler: SchemaBundler,
    private readonly root: Origin,
  ) {
    const value = valueAt(root.file.doc.value, root.pointer).value;
    this.rootValue = value;
    this.defsKey = isDraft07(value) ? 'definitions' : '$defs';
    if (isObject(value)) {
      for (const key of ['$defs', 'definitions']) {
        const own = value[key];
        if (isObject(own)) for (const name of Object.keys(own)) this.usedNames.add(name);
      }
    }
  }

  run(): BundledSchema {
    const rootValue = this.rootValue;
    const rootKeyOrigins = new Map<string, Origin>();
    const inlined = this.inlineRootRef(rootValue, rootKeyOrigins);
    const copied = inlined ?? this.copy(rootValue, this.root, 0, 'inside');

    if (!isObject(copied)) return { schema: {}, complete: false, originOf: () => this.root };
    // The definitions are added to the root, which must then be a copy, never the manifest's own node.
    const schema = this.defs.size > 0 && copied === rootValue ? { ...copied } : copied;
    if (this.defs.size > 0) {
      const own = isObject(schema[this.defsKey]) ? schema[this.defsKey] as JsonObject : {};
      const bundled: JsonObject = { ...own };
      for (const name of [...this.defs.keys()].sort()) defineOwn(bundled, name, this.defs.get(name)!.schema);
      schema[this.defsKey] = bundled;
    }

    const defOrigins = new Map([...this.defs].map(([name, def]) => [name, def.origin]));
    const root = this.root;
    const defsKey = this.defsKey;
    return {
      schema,
      complete: this.complete && !this.tooLarge,
      originOf(pointer: string): Origin {
        const segments = parsePointer(pointer);
        if (segments[0] === defsKey && segments[1] !== undefined) {
          const origin = defOrigins.get(segments[1]);
          if (origin) return { file: origin.file, pointer: joinPointer(origin.pointer, ...segments.slice(2)) };
        }
        const base = (segments[0] !== undefined ? rootKeyOrigins.get(segments[0]) : undefined) ?? root;
        return { file: base.file, pointer: base.pointer + pointer };
      },
    };
  }

  /**
   * A root that is only a `$ref` (plus annotations) becomes a copy of its target, so the wire
   * schema shows `type: object` at its root as MCP requires. Undefined when that does not apply.
   */
  private inlineRootRef(rootValue: unknown, keyOrigins: Map<string, Origin>): JsonObject | undefined {
    if (!isObject(rootValue) || typeof rootValue.$ref !== 'string') return undefined;
    const target = this.bundler.resolve(rootValue.$ref, this.root, this.root);
    if (!target) {
      this.complete = false;
      return undefined;
    }
    const targetValue = this.bundler.valueAt(target.file.doc.value, target.pointer).value;
    // The target's own `$schema`, `$id` and definitions never reach the copy, so they cannot clash.
    const siblings = Object.keys(rootValue).filter((k) => !['$ref', '$schema', '$id', '$defs', 'definitions'].includes(k));
    // Annotations may differ between a root `$ref` and its target without blocking inlining (the root's win).
    const inlinable = isObject(targetValue) && siblings.every((k) => ANNOTATION_KEYWORDS.has(k) || !Object.hasOwn(targetValue, k));
    if (!inlinable) return undefined;
    const { $ref: _ref, ...rest } = rootValue;
    const fromRoot = this.copy(rest, this.root, 0, 'inside') as JsonObject;
    // The target may lie inside the root itself (`#/$defs/X` next to the `$ref`): copied whole, so
    // its nodes are not shared with the root's own definitions.
    this.sharing = false;
    const fromTarget = this.copy(targetValue, target, 1, this.relationOf(target)) as JsonObject;
    this.sharing = true;
    const merged: JsonObject = {};
    // The dialect is the manifest's to say (a target file that disagrees gets a warning in copy()).
    if (fromRoot.$schema !== undefined) merged.$schema = fromRoot.$schema;
    for (const [key, value] of Object.entries(fromTarget)) {
      const rootWins = Object.hasOwn(fromRoot, key);
      defineOwn(merged, key, rootWins ? fromRoot[key] : value);
      keyOrigins.set(key, rootWins ? this.root : target);
    }
    for (const [key, value] of Object.entries(fromRoot)) if (!Object.hasOwn(merged, key)) defineOwn(merged, key, value);
    return merged;
  }

  private nameFor(target: Origin): { name: string; isNew: boolean } {
    const key = `${target.file.path}\0${target.pointer}`;
    const known = this.names.get(key);
    if (known !== undefined) return { name: known, isNew: false };
    const segments = this.bundler.segmentsOf(target.pointer);
    const natural = segments.length > 0 ? segments[segments.length - 1]! : path.basename(target.file.path).replace(/\.(json|ya?ml)$/i, '');
    const base = natural.replace(/[^A-Za-z0-9_.-]/g, '_') || 'schema';
    let name = base;
    for (let n = 2; this.usedNames.has(name); n++) name = `${base}_${n}`;
    this.usedNames.add(name);
    this.names.set(key, name);
    return { name, isNew: true };
  }

  private budget(at: Origin): boolean {
    this.nodes += 1;
    this.bundler.totalNodes += 1;
    if (this.bundler.totalNodes > REF_LIMITS.maxNodesPerManifest) {
      if (!this.bundler.manifestTooLarge) {
        this.bundler.manifestTooLarge = true;
        this.bundler.problems.push(
          diagnosticAt(this.root.file.doc, this.root.pointer, `the manifest's schemas are too large: more than ${REF_LIMITS.maxNodesPerManifest} nodes together after bundling (this schema went past it)`, 'split the server, or share definitions through $defs instead of repeating them'),
        );
      }
      this.complete = false;
      return false;
    }
    if (this.nodes > REF_LIMITS.maxNodesPerSchema) {
      if (!this.tooLarge) {
        this.tooLarge = true;
        this.bundler.problems.push(diagnosticAt(this.root.file.doc, this.root.pointer, `schema is too large: more than ${REF_LIMITS.maxNodesPerSchema} nodes after bundling its references`));
      }
      return false;
    }
    return true;
  }

  /** The relation of a node reached other than as a child: the root, or a `$ref`'s target. */
  private relationOf(at: Origin): Relation {
    if (at.file !== this.root.file) return 'outside';
    if (isWithin(at.pointer, this.root.pointer)) return 'inside';
    return this.root.pointer.startsWith(at.pointer + '/') ? 'above' : 'outside';
  }

  /** The relation of a child, given its parent's. */
  private relationBelow(parent: Relation, child: Origin): Relation {
    if (parent !== 'above') return parent;
    const relation = this.relationOf(child);
    return relation === 'inside' ? 'reentered' : relation;
  }

  /**
   * Copies a schema, rewriting `$ref`s and dropping what must not reach the wire or the code.
   * Inside the tool's own schema the copy shares structure with the manifest: a node nothing below
   * changed is returned as it is, and only the spine above a change is new (most tool schemas have
   * no `$ref` at all, and copying each of their nodes was the largest part of a warm run's load).
   * Schemas reached through a `$ref` are still copied whole, so no node of the manifest appears
   * twice in one bundled schema.
   */
  private copy(value: unknown, at: Origin, depth: number, relation: Relation): unknown {
    if (!this.budget(at)) return {};
    if (depth > REF_LIMITS.maxDepth) {
      this.complete = false;
      this.bundler.problems.push(diagnosticAt(at.file.doc, at.pointer, `schema nests deeper than ${REF_LIMITS.maxDepth} levels`));
      return {};
    }
    if (!isObject(value)) return this.copyData(value, at, depth, relation);
    const doc = at.file.doc;
    // Outside the root, every `$ref` is rewritten to a bundled definition, so the copy's own
    // definitions and dialect are dead weight there.
    const bundledCopy = relation === 'outside' || relation === 'above';
    const out = new LazyCopy(value, this.sharing && relation === 'inside');
    const keys = Object.keys(value);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      const child = value[key];
      // Most members are plain values under ordinary keywords (type, format, description…): copied
      // as they are, without building the pointer only a message would need.
      if ((child === null || typeof child !== 'object') && !KEYS_COPY_LOOKS_AT.has(key) && (typeof child !== 'boolean' || subschemaSlot(key, child) === undefined)) {
        out.keep(index, key, child, child);
        continue;
      }
      const childAt = new Place(at.file, at, key);
      const childRelation = this.relationBelow(relation, childAt);
      if (CODE_KEYWORDS.has(key)) {
        this.bundler.warnings.push(diagnosticAt(doc, childAt.pointer, `'${key}' ignored: schemas are data, never code`, 'describe the type with JSON Schema keywords instead', 'key'));
        out.drop(index);
        continue;
      }
      if (UNSUPPORTED_KEYWORDS.has(key)) {
        this.bundler.problems.push(diagnosticAt(doc, childAt.pointer, `'${key}' is not supported`, 'refer to schemas by file path and JSON pointer, like #/$defs/Name', 'key'));
        out.drop(index);
        continue;
      }
      if (key === '$id') {
        if (!(bundledCopy && at.pointer === '')) {
          this.bundler.warnings.push(diagnosticAt(doc, childAt.pointer, "'$id' dropped: references resolve by file path, and each tool schema is bundled on its own", undefined, 'key'));
        }
        out.drop(index);
        continue;
      }
      if (bundledCopy && key === '$schema' && at.pointer === '' && isDraft07(value) !== (this.defsKey === 'definitions')) {
        this.bundler.warnings.push(
          diagnosticAt(doc, childAt.pointer, `this file's dialect differs from the tool schema that uses it (${this.defsKey === 'definitions' ? 'draft-07' : '2020-12'}), which decides`, 'set $schema on the tool schema in the manifest, next to its $ref', 'key'),
        );
      }
      if (bundledCopy && (key === '$schema' || key === '$defs' || key === 'definitions')) {
        out.drop(index);
        continue;
      }
      if (key === '$ref') {
        const target = this.bundler.resolve(child, at, this.root);
        if (!target) {
          this.complete = false;
          out.keep(index, key, child, child);
          continue;
        }
        if (target.file === this.root.file && isWithin(target.pointer, this.root.pointer)) {
          out.keep(index, key, fragmentOf(target.pointer.slice(this.root.pointer.length)), child);
          continue;
        }
        const { name, isNew } = this.nameFor(target);
        out.keep(index, key, `#/${this.defsKey}/${name}`, child);
        if (isNew) {
          const targetValue = this.bundler.valueAt(target.file.doc.value, target.pointer).value;
          // Reserve the slot before copying so that recursion through this target ends here.
          this.defs.set(name, { schema: {}, origin: target });
          this.defs.set(name, { schema: this.copy(targetValue, target, depth + 1, this.relationOf(target)), origin: target });
        }
        continue;
      }
      if (key === 'pattern' && typeof child === 'string') this.checkPattern(child, childAt);
      const slot = subschemaSlot(key, child);
      if (slot === 'one') {
        out.keep(index, key, this.copy(child, childAt, depth + 1, childRelation), child);
      } else if (slot === 'list') {
        const items = new LazyList(child as unknown[], out.sharing);
        for (const [i, item] of (child as unknown[]).entries()) {
          const itemAt = new Place(at.file, childAt, i);
          items.keep(i, this.copy(item, itemAt, depth + 1, this.relationBelow(childRelation, itemAt)));
        }
        out.keep(index, key, items.result(), child);
      } else if (slot === 'map') {
        const map = child as JsonObject;
        const entries = new LazyCopy(map, out.sharing);
        const names = Object.keys(map);
        for (let i = 0; i < names.length; i++) {
          const name = names[i]!;
          const sub = map[name];
          const subAt = new Place(at.file, childAt, name);
          const subRelation = this.relationBelow(childRelation, subAt);
          if (key === 'patternProperties') this.checkPattern(name, subAt, 'key');
          // `dependencies` (draft-07) may also hold arrays of property names: data, not schemas.
          entries.keep(i, name, isSubschema(sub) ? this.copy(sub, subAt, depth + 1, subRelation) : this.copyData(sub, subAt, depth + 1, subRelation), sub);
        }
        out.keep(index, key, entries.result(), child);
      } else {
        out.keep(index, key, this.copyData(child, childAt, depth + 1, childRelation), child);
      }
    }
    return out.result();
  }

  /**
   * Copies plain data (enum values, defaults, examples, extension keywords) without interpreting
   * it; where copy() shares structure, so does this (nothing below changes unless a limit is hit).
   */
  private copyData(value: unknown, at: Origin, depth: number, relation: Relation): unknown {
    if (value === null || typeof value !== 'object') return value;
    if (!this.budget(at)) return null;
    if (depth > REF_LIMITS.maxDepth) {
      this.complete = false;
      this.bundler.problems.push(diagnosticAt(at.file.doc, at.pointer, `value nests deeper than ${REF_LIMITS.maxDepth} levels`));
      return null;
    }
    const sharing = this.sharing && relation === 'inside';
    if (Array.isArray(value)) {
      const items = new LazyList(value, sharing);
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        if (item === null || typeof item !== 'object') {
          items.keep(i, item);
          continue;
        }
        const itemAt = new Place(at.file, at, i);
        items.keep(i, this.copyData(item, itemAt, depth + 1, this.relationBelow(relation, itemAt)));
      }
      return items.result();
    }
    const out = new LazyCopy(value as JsonObject, sharing);
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const child = (value as JsonObject)[key];
      // A primitive is its own copy: no pointer needed.
      if (child === null || typeof child !== 'object') {
        out.keep(i, key, child, child);
        continue;
      }
      const childAt = new Place(at.file, at, key);
      out.keep(i, key, this.copyData(child, childAt, depth + 1, this.relationBelow(relation, childAt)), child);
    }
    return out.result();
  }

  private checkPattern(pattern: string, at: Origin, part: 'value' | 'key' = 'value'): void {
    const verdict = patternVerdict(pattern);
    if (verdict.invalid !== undefined) {
      this.complete = false;
      this.bundler.problems.push(diagnosticAt(at.file.doc, at.pointer, `pattern '${pattern}' is not a valid regular expression: ${verdict.invalid}`, undefined, part));
      return;
    }
    if (verdict.risky !== undefined) {
      this.bundler.warnings.push(
        diagnosticAt(at.file.doc, at.pointer, `pattern '${pattern}' may take exponential time on some inputs: ${verdict.risky}`, 'avoid a quantified group that itself contains a quantifier, like (a+)+', part),
      );
    }
  }
}
