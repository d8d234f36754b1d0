/**
 * A linear-time matcher for JSON Schema `pattern` and `patternProperties`, emitted into generated
 * validators in place of `new RegExp(…)`. JavaScript's RegExp backtracks, and
 * a pattern such as `^(a+)+$` takes exponential time on a crafted string: one tool argument would
 * freeze a server's event loop. This matcher compiles the pattern into a Thompson NFA and runs all
 * its states side by side, one input character at a time: time grows with input length × pattern
 * size, never exponentially. `test` answers exactly what `RegExp.prototype.test` answers.
 *
 * Scope: unicode-mode patterns (ajv compiles patterns with the `u` flag) built from literals, `.`,
 * character classes and escapes, groups, alternation, every quantifier, `^`, `$`, `\b` and `\B`.
 * Backreferences and lookaround have no linear matcher; a pattern using them, or one whose counted
 * repetitions would need more than 100 000 states, falls back to RegExp (the generator already warns
 * about patterns that may backtrack). A character class or escape is a single-character test and is
 * judged by RegExp itself on that one character, so `\p{…}`, ranges and negations keep their exact
 * meaning at constant cost.
 *
 * Kept as source text (see inline-helpers.ts) so the emitted bytes never depend on how this file
 * was compiled.
 */

/** The module name ajv prints for our `code.regExp` engine; inline-helpers.ts replaces it. */
export const LINEAR_PATTERN_MODULE = 'mcp-gen/linear-pattern';

/** Binding of the helper in generated code. */
export const LINEAR_PATTERN_NAME = '$linearPattern';

export const LINEAR_PATTERN_SOURCE = String.raw`function $linearPattern(source, flags) {
  const native = new RegExp(source, flags);
  if (flags !== "u") return native;
  const CHAR = 0, SPLIT = 1, ASSERT = 2, MATCH = 3, MAX_STATES = 100000;
  const kind = [], arg = [], out = [];
  let at = 0;
  const unsupported = () => { throw native; };
  const state = (k, a, o) => {
    if (kind.length >= MAX_STATES) unsupported();
    kind.push(k); arg.push(a); out.push(o);
    return kind.length - 1;
  };
  const atomTest = (text) => {
    const re = new RegExp("^(?:" + text + ")$", "u");
    const ascii = new Int8Array(128);
    return (cp) => {
      if (cp < 128) {
        if (ascii[cp] === 0) ascii[cp] = re.test(String.fromCharCode(cp)) ? 1 : 2;
        return ascii[cp] === 1;
      }
      return re.test(String.fromCodePoint(cp));
    };
  };
  const peek = () => source[at];
  // Parser: a tree of { t: "alt" | "cat" | "rep" | "char" | "assert", … }.
  const parseAlt = () => {
    const xs = [parseCat()];
    while (peek() === "|") { at++; xs.push(parseCat()); }
    return xs.length === 1 ? xs[0] : { t: "alt", xs };
  };
  const parseCat = () => {
    const xs = [];
    while (at < source.length && peek() !== "|" && peek() !== ")") xs.push(parseQuantified());
    return { t: "cat", xs };
  };
  const number = () => {
    const start = at;
    while (at < source.length && source[at] >= "0" && source[at] <= "9") at++;
    return start === at ? -1 : Number(source.slice(start, at));
  };
  const parseQuantified = () => {
    const x = parseAtom();
    const c = peek();
    let min, max;
    if (c === "*") { min = 0; max = Infinity; at++; }
    else if (c === "+") { min = 1; max = Infinity; at++; }
    else if (c === "?") { min = 0; max = 1; at++; }
    else if (c === "{") {
      at++;
      min = number();
      max = min;
      if (peek() === ",") { at++; max = peek() === "}" ? Infinity : number(); }
      if (min < 0 || max < 0 || peek() !== "}") unsupported();
      at++;
    } else return x;
    // Lazy or greedy matters for captures, not for whether the pattern matches.
    if (peek() === "?") at++;
    return { t: "rep", x, min, max };
  };
  const escapeText = () => {
    const start = at - 1;
    const c = source[at++];
    if (c === "b" || c === "B") return { t: "assert", k: c };
    if ((c >= "1" && c <= "9") || c === "k") unsupported();
    if (c === "p" || c === "P") at = source.indexOf("}", at) + 1;
    else if (c === "x") at += 2;
    else if (c === "c") at += 1;
    else if (c === "u") {
      if (peek() === "{") at = source.indexOf("}", at) + 1;
      else {
        const unit = parseInt(source.slice(at, at + 4), 16);
        at += 4;
        // A surrogate pair written as two escapes is one character.
        if (unit >= 0xd800 && unit <= 0xdbff && /^\\u[Dd][C-Fc-f][0-9A-Fa-f]{2}/.test(source.slice(at, at + 6))) at += 6;
      }
    }
    return { t: "char", test: atomTest(source.slice(start, at)) };
  };
  const parseAtom = () => {
    const c = source[at++];
    if (c === "(") {
      if (peek() === "?") {
        if (source[at + 1] === ":") at += 2;
        else if (source[at + 1] === "<" && source[at + 2] !== "=" && source[at + 2] !== "!") at = source.indexOf(">", at) + 1;
        else unsupported();
      }
      const x = parseAlt();
      if (source[at++] !== ")") unsupported();
      return x;
    }
    if (c === "[") {
      const start = at - 1;
      while (at < source.length && source[at] !== "]") at += source[at] === "\\" ? 2 : 1;
      at++;
      return { t: "char", test: atomTest(source.slice(start, at)) };
    }
    if (c === "\\") return escapeText();
    if (c === ".") return { t: "char", test: (cp) => cp !== 10 && cp !== 13 && cp !== 0x2028 && cp !== 0x2029 };
    if (c === "^" || c === "$") return { t: "assert", k: c };
    const cp = source.codePointAt(at - 1);
    if (cp > 0xffff) at++;
    return { t: "char", test: (x) => x === cp };
  };
  // Compiler: builds states back to front; each node leads to "next".
  const emit = (node, next) => {
    switch (node.t) {
      case "char": return state(CHAR, node.test, [next]);
      case "assert": return state(ASSERT, node.k, [next]);
      case "cat": {
        let s = next;
        for (let i = node.xs.length - 1; i >= 0; i--) s = emit(node.xs[i], s);
        return s;
      }
      case "alt": return state(SPLIT, undefined, node.xs.map((x) => emit(x, next)));
      default: {
        let s = next;
        if (node.max === Infinity) {
          const loop = state(SPLIT, undefined, []);
          out[loop].push(emit(node.x, loop), next);
          s = loop;
        } else {
          for (let i = node.min; i < node.max; i++) s = state(SPLIT, undefined, [emit(node.x, s), next]);
        }
        for (let i = 0; i < node.min; i++) s = emit(node.x, s);
        return s;
      }
    }
  };
  let start, anchored = false;
  try {
    const tree = parseAlt();
    // A pattern starting with ^ (outside any alternation) can only match from position 0.
    anchored = tree.t === "cat" && tree.xs.length > 0 && tree.xs[0].t === "assert" && tree.xs[0].k === "^";
    if (at !== source.length) unsupported();
    start = emit(tree, state(MATCH, undefined, []));
  } catch (error) {
    if (error === native) return native;
    throw error;
  }
  const size = kind.length;
  const mark = new Int32Array(size);
  let generation = 0;
  let current = new Int32Array(size), following = new Int32Array(size);
  const stack = new Int32Array(size);
  const word = (s, i) => {
    if (i < 0 || i >= s.length) return false;
    const c = s.charCodeAt(i);
    return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  };
  // Adds "from" and every state reachable from it without reading a character; true on a match.
  const close = (from, list, count, s, pos) => {
    let top = 0;
    if (mark[from] === generation) return count;
    mark[from] = generation;
    stack[top++] = from;
    while (top > 0) {
      const id = stack[--top];
      const k = kind[id];
      if (k === MATCH) return -1;
      if (k === CHAR) { list[count++] = id; continue; }
      if (k === ASSERT) {
        const a = arg[id];
        const ok = a === "^" ? pos === 0 : a === "$" ? pos === s.length : (word(s, pos - 1) !== word(s, pos)) === (a === "b");
        if (!ok) continue;
      }
      const targets = out[id];
      for (let i = targets.length - 1; i >= 0; i--) {
        const t = targets[i];
        if (mark[t] !== generation) { mark[t] = generation; stack[top++] = t; }
      }
    }
    return count;
  };
  const test = (input) => {
    const s = String(input);
    if (generation > 0x3fffffff) { generation = 0; mark.fill(0); }
    // "current" holds the character-reading states alive at "pos"; one mark generation per position.
    let count = 0;
    generation++;
    for (let pos = 0; ; ) {
      // Unanchored search: a match may start at every position.
      count = close(start, current, count, s, pos);
      if (count < 0) return true;
      if (pos >= s.length || count === 0 && anchored) return false;
      const cp = s.codePointAt(pos);
      const width = cp > 0xffff ? 2 : 1;
      let nextCount = 0;
      generation++;
      for (let i = 0; i < count; i++) {
        const id = current[i];
        if (arg[id](cp)) {
          nextCount = close(out[id][0], following, nextCount, s, pos + width);
          if (nextCount < 0) return true;
        }
      }
      const swap = current; current = following; following = swap;
      count = nextCount;
      pos += width;
    }
  };
  return { source, flags, test, toString: () => "/" + source + "/" + flags };
}`;
