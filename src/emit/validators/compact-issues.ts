/**
 * ajv prints each problem its code can report as a whole object literal, about 150 bytes:
 * `{instancePath:…,schemaPath:"…",keyword:"type",params:{type: "string"},message:"must be string"}`.
 * GitHub's validators hold 23,000 of them, a third of their bytes. The four most frequent shapes
 * (type, required, additionalProperties, format) become calls to small helpers that build the very
 * same object: the same keys in the same order, the same values. Only the failing path runs them.
 *
 * A literal is rewritten only when it matches its shape token by token (string literals are read
 * whole, so a property name that spells `,schemaPath:` inside its quotes cannot shift a match);
 * anything else is left as ajv printed it.
 */

/**
 * A helper's source: `function <name>(instancePath, schemaPath, <param>)` returning the problem with
 * ajv's keys in ajv's order; `message` is the JavaScript expression of its message.
 */
function issueHelper(name: string, keyword: string, param: string, message: string): { name: string; uses: string[]; code: string } {
  return {
    name,
    uses: [],
    code: `function ${name}(instancePath, schemaPath, ${param}) {\n  return { instancePath, schemaPath, keyword: "${keyword}", params: { ${param} }, message: ${message} };\n}`,
  };
}

/** The helpers, as emitted source text (inline-helpers.ts declares each once per file). */
export const ISSUE_HELPERS: readonly { name: string; uses: string[]; code: string }[] = [
  issueHelper('$typeIssue', 'type', 'type', '"must be " + type'),
  issueHelper('$requiredIssue', 'required', 'missingProperty', `"must have required property '" + missingProperty + "'"`),
  issueHelper('$additionalIssue', 'additionalProperties', 'additionalProperty', '"must NOT have additional properties"'),
  issueHelper('$formatIssue', 'format', 'format', String.raw`"must match format \"" + format + "\""`),
];

/** A JSON-style string literal, as ajv prints them (escapes kept, no line break inside). */
const STRING = String.raw`"(?:[^"\\\n]|\\.)*"`;
/**
 * A variable of ajv's code (`missing0`, `key3`, `i1`), whole: without the lookahead a name could
 * also be read as several shorter ones, and a literal that fails its shape would backtrack through
 * every such split (seconds on a large API).
 */
const NAME = String.raw`[A-Za-z_$][\w$]*(?![\w$])`;
/** An instance path as ajv builds it: names, string literals, `+`, spaces and the JSON Pointer escapes of a key. */
const PATH = String.raw`(?:${NAME}|${STRING}|\+| |\.replace\(/~/g, "~0"\)|\.replace\(/\\\//g, "~1"\))+`;
/** `{instancePath` or `{instancePath:<path>`, then `,schemaPath:"…",keyword:"`. */
const HEAD = String.raw`\{instancePath(?::(${PATH}))?,schemaPath:(${STRING}),keyword:"`;

const SHAPES: readonly { helper: string; pattern: RegExp; argument: (m: RegExpExecArray) => string | undefined }[] = [
  {
    helper: '$typeIssue',
    pattern: new RegExp(String.raw`${HEAD}type",params:\{type: (${STRING})\},message:"must be ((?:[^"\\]|\\.)*)"\}`, 'g'),
    // Only where the message is exactly "must be " and the type (a list type reads it from the schema: left alone).
    argument: (m) => (JSON.parse(m[3] as string) === m[4] ? (m[3] as string) : undefined),
  },
  {
    helper: '$requiredIssue',
    pattern: new RegExp(String.raw`${HEAD}required",params:\{missingProperty: (${NAME})\},message:"must have required property '"\+(${NAME})\+"'"\}`, 'g'),
    argument: (m) => (m[3] === m[4] ? (m[3] as string) : undefined),
  },
  {
    helper: '$additionalIssue',
    pattern: new RegExp(String.raw`${HEAD}additionalProperties",params:\{additionalProperty: (${NAME})\},message:"must NOT have additional properties"\}`, 'g'),
    argument: (m) => m[3],
  },
  {
    helper: '$formatIssue',
    pattern: new RegExp(String.raw`${HEAD}format",params:\{format: (${STRING})\},message:"must match format \\""\+(${STRING})\+"\\""\}`, 'g'),
    argument: (m) => (m[3] === m[4] ? (m[3] as string) : undefined),
  },
];

/** The code with those literals replaced by helper calls, and the helpers it now calls. */
export function compactIssueLiterals(code: string): { code: string; needed: Set<string> } {
  const needed = new Set<string>();
  let out = code;
  for (const { helper, pattern, argument } of SHAPES) {
    out = out.replace(pattern, (...groups: unknown[]) => {
      const m = groups.slice(0, -2) as unknown as RegExpExecArray;
      const value = argument(m);
      if (value === undefined) return m[0];
      needed.add(helper);
      return `${helper}(${m[1] ?? 'instancePath'},${m[2]},${value})`;
    });
  }
  return { code: out, needed };
}
