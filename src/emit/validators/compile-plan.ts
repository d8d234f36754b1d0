import { defineOwn, isSchemaObject } from '../../schema/keywords.js';
import { forEachSchemaNode } from '../../schema/walk.js';
import { protoMembersForAjv, stripAnnotations, type Json, type JsonObject } from './ajv-schema.js';

/**
 * How a schema document is handed to ajv. Compiled by JSON pointer into one big document, ajv
 * compiles a shared definition again for many of the validators that reach it; given each
 * definition as a schema of its own, it compiles each exactly once (the 2025-11-25 schema: 146
 * functions instead of 238, a third less code). The split is only made when it cannot change a
 * verdict: every `$ref` is a local pointer into the definitions, and nothing sets a base URI or an
 * anchor. Anything else is compiled as the one document it is.
 */
export interface CompilePlan {
  /** Schemas to add to ajv, with the key each is added under. */
  schemas: { key: string; schema: JsonObject }[];
  /** The ajv key to compile for a JSON pointer into the original document. */
  target(ref: string): string;
}

const ROOT_ID = 'mcp-gen:root';
const DEFINITION_KEYWORDS = ['$defs', 'definitions'] as const;
const LOCAL_DEFINITION_REF = /^#\/(\$defs|definitions)\/([^/]+)(\/.*)?$/;
/** Keywords that set a base URI or a name to resolve against: their presence rules the split out. */
const SCOPE_KEYWORDS = ['$id', '$anchor', '$dynamicAnchor', '$dynamicRef', '$recursiveAnchor', '$recursiveRef'];
/** Definition names that can be a URI path segment as they are. */
const PLAIN_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export function planCompilation(input: object): CompilePlan {
  const root = protoMembersForAjv(stripAnnotations(input as Json));
  if (!isSchemaObject(root)) throw new Error('emitValidators: the schema root must be an object');
  delete root['$schema']; // the dialect option decides, not the document

  return splittable(root) ? splitPlan(root) : wholePlan(root);
}

/** The document as it is, under a fixed key (its own `$id`, if any, stays in charge of resolving refs). */
function wholePlan(root: JsonObject): CompilePlan {
  return { schemas: [{ key: ROOT_ID, schema: root }], target: (ref) => ROOT_ID + existingPointer(root, ref) };
}

function splittable(root: JsonObject): boolean {
  let ok = true;
  const names = DEFINITION_KEYWORDS.flatMap((k) => (isSchemaObject(root[k]) ? Object.keys(root[k]) : []));
  if (!names.every((n) => PLAIN_NAME.test(n))) return false;
  forEachSchemaNode(root, (node) => {
    if (SCOPE_KEYWORDS.some((k) => Object.prototype.hasOwnProperty.call(node, k))) ok = false;
    const ref = node['$ref'];
    if (ref !== undefined && (typeof ref !== 'string' || !definitionOf(root, ref))) ok = false;
  });
  return ok;
}

/** The definition a local pointer starts in, when it exists. */
function definitionOf(root: JsonObject, ref: string): { keyword: string; name: string; rest: string } | undefined {
  const m = LOCAL_DEFINITION_REF.exec(ref);
  if (!m) return undefined;
  const keyword = m[1] as string;
  const name = decodePointerToken(m[2] as string);
  const defs = root[keyword];
  if (!isSchemaObject(defs) || !Object.prototype.hasOwnProperty.call(defs, name)) return undefined;
  return { keyword, name, rest: m[3] ?? '' };
}

function definitionId(keyword: string, name: string): string {
  return `mcp-gen:${keyword === '$defs' ? 'defs' : 'definitions'}/${name}`;
}

function splitPlan(root: JsonObject): CompilePlan {
  // In place: `root` is planCompilation's own copy, each schema object in it a fresh one.
  const rewriteRefs = (schema: Json): Json => {
    forEachSchemaNode(schema, (node) => {
      const ref = node['$ref'];
      if (typeof ref === 'string') {
        const def = definitionOf(root, ref) as { keyword: string; name: string; rest: string };
        node['$ref'] = definitionId(def.keyword, def.name) + (def.rest === '' ? '' : `#${def.rest}`);
      }
    });
    return schema;
  };

  const schemas: { key: string; schema: JsonObject }[] = [];
  const remainder: JsonObject = {};
  for (const [key, value] of Object.entries(root)) {
    if (!(DEFINITION_KEYWORDS as readonly string[]).includes(key)) defineOwn(remainder, key, value);
  }
  schemas.push({ key: ROOT_ID, schema: { ...(rewriteRefs(remainder) as JsonObject), $id: ROOT_ID } });
  for (const keyword of DEFINITION_KEYWORDS) {
    const defs = root[keyword];
    if (!isSchemaObject(defs)) continue;
    for (const [name, schema] of Object.entries(defs)) {
      const rewritten = rewriteRefs(schema);
      const id = definitionId(keyword, name);
      // A boolean schema cannot carry an $id; `allOf` gives it one without changing its verdicts.
      schemas.push({ key: id, schema: isSchemaObject(rewritten) ? { ...rewritten, $id: id } : { $id: id, allOf: [rewritten] } });
    }
  }

  return {
    schemas,
    target: (ref) => {
      const pointer = existingPointer(root, ref);
      const def = definitionOf(root, pointer);
      if (def) return definitionId(def.keyword, def.name) + (def.rest === '' ? '' : `#${def.rest}`);
      return ROOT_ID + pointer;
    },
  };
}

/** `ref` if it points at something in `root`, else the same pointer under the other dialect's definitions keyword. */
function existingPointer(root: JsonObject, ref: string): string {
  const swapped = ref.startsWith('#/$defs/')
    ? `#/definitions/${ref.slice('#/$defs/'.length)}`
    : ref.startsWith('#/definitions/')
      ? `#/$defs/${ref.slice('#/definitions/'.length)}`
      : undefined;
  for (const candidate of swapped === undefined ? [ref] : [ref, swapped]) {
    if (resolvePointer(root, candidate) !== undefined) return candidate;
  }
  throw new Error(`emitValidators: nothing at ${ref} in the schema`);
}

function resolvePointer(root: Json, ref: string): Json | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: Json | undefined = root;
  for (const token of ref.slice(2).split('/')) {
    const key = decodePointerToken(token);
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as { [key: string]: Json })[key];
  }
  return node;
}

/** A JSON pointer token as it appears in a URI fragment. */
function decodePointerToken(token: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    decoded = token;
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}
