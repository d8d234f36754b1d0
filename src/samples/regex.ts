/**
 * Strings that match a JSON Schema `pattern`, for the regex subset tool schemas use in practice:
 * literals, escapes (\d \w \s and their negations, \p{L}-style letter and number classes), `.`,
 * character classes with ranges and negation, groups, alternation, anchors and quantifiers (a
 * repetition without an upper bound stops at a few more than its minimum). Lookaround, word
 * boundaries and backreferences are outside it: `patternSample` then tries a list of common
 * strings against the real RegExp, and gives up with undefined.
 */
import type { Random } from './prng.js';

type Node =
  | { kind: 'chars'; choices: string[] }
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; options: Node[] }
  | { kind: 'repeat'; node: Node; min: number; max: number };

class Unsupported extends Error {}

/** Printable ASCII: what `.` and negated classes choose from. */
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
const DIGITS = [...'0123456789'];
const WORD = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'];
const SPACE = [' ', '\t'];
/** Beyond its minimum, an unbounded repetition adds at most this many. */
const OPEN_REPEAT = 3;

const ESCAPE_CLASSES: Readonly<Record<string, string[]>> = {
  d: DIGITS,
  D: PRINTABLE.filter((c) => !DIGITS.includes(c)),
  w: WORD,
  W: PRINTABLE.filter((c) => !WORD.includes(c)),
  s: SPACE,
  S: PRINTABLE.filter((c) => c !== ' '),
};
const PROPERTY_CLASSES: Readonly<Record<string, string[]>> = {
  L: [...'abcdefghijklmnopqrstuvwxyz'],
  Letter: [...'abcdefghijklmnopqrstuvwxyz'],
  Ll: [...'abcdefghijklmnopqrstuvwxyz'],
  Lu: [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'],
  N: DIGITS,
  Nd: DIGITS,
};
const CONTROL_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v', '0': '\0' };

class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.at < this.source.length) throw new Unsupported(`unexpected ${this.source[this.at]}`);
    return node;
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      options.push(this.sequence());
    }
    return options.length === 1 ? (options[0] as Node) : { kind: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      const atom = this.atom();
      if (atom !== undefined) items.push(this.quantified(atom));
    }
    return { kind: 'seq', items };
  }

  /** One atom; undefined for an anchor, which matches no character. */
  private atom(): Node | undefined {
    const c = this.source[this.at++] as string;
    if (c === '^' || c === '$') return undefined;
    if (c === '.') return { kind: 'chars', choices: PRINTABLE };
    if (c === '[') return this.characterClass();
    if (c === '\\') return { kind: 'chars', choices: this.escape() };
    if (c === '(') {
      if (this.source[this.at] === '?') {
        if (this.source[this.at + 1] !== ':') throw new Unsupported('lookaround or named group');
        this.at += 2;
      }
      const inner = this.alternation();
      if (this.source[this.at] !== ')') throw new Unsupported('unclosed group');
      this.at++;
      return inner;
    }
    if ('*+?{'.includes(c)) throw new Unsupported('quantifier without an atom');
    return { kind: 'chars', choices: [c] };
  }

  private escape(): string[] {
    const c = this.source[this.at++];
    if (c === undefined) throw new Unsupported('trailing backslash');
    if (Object.hasOwn(ESCAPE_CLASSES, c)) return ESCAPE_CLASSES[c] as string[];
    if (Object.hasOwn(CONTROL_ESCAPES, c)) return [CONTROL_ESCAPES[c] as string];
    if (c === 'p') {
      const m = /^\{([A-Za-z_]+)\}/.exec(this.source.slice(this.at));
      if (!m || !Object.hasOwn(PROPERTY_CLASSES, m[1] as string)) throw new Unsupported('unicode property');
      this.at += m[0].length;
      return PROPERTY_CLASSES[m[1] as string] as string[];
    }
    if (c === 'u') {
      const m = /^[0-9a-fA-F]{4}/.exec(this.source.slice(this.at));
      if (!m) throw new Unsupported('\\u escape');
      this.at += 4;
      return [String.fromCharCode(parseInt(m[0], 16))];
    }
    if (c === 'x') {
      const m = /^[0-9a-fA-F]{2}/.exec(this.source.slice(this.at));
      if (!m) throw new Unsupported('\\x escape');
      this.at += 2;
      return [String.fromCharCode(parseInt(m[0], 16))];
    }
    if (/[A-Za-z1-9]/.test(c)) throw new Unsupported(`\\${c}`);
    return [c];
  }

  private characterClass(): Node {
    const negated = this.source[this.at] === '^';
    if (negated) this.at++;
    const members = new Set<string>();
    let first = true;
    while (this.source[this.at] !== ']' || first) {
      first = false;
      if (this.at >= this.source.length) throw new Unsupported('unclosed class');
      const start = this.classMember();
      if (this.source[this.at] === '-' && this.source[this.at + 1] !== ']' && start.length === 1) {
        this.at++;
        const end = this.classMember();
        if (end.length !== 1) throw new Unsupported('class range');
        const from = (start[0] as string).codePointAt(0) as number;
        const to = (end[0] as string).codePointAt(0) as number;
        if (to < from) throw new Unsupported('class range out of order');
        for (let code = from; code <= Math.min(to, from + 400); code++) members.add(String.fromCodePoint(code));
      } else {
        for (const member of start) members.add(member);
      }
    }
    this.at++;
    const choices = negated ? PRINTABLE.filter((c) => !members.has(c)) : [...members];
    if (choices.length === 0) throw new Unsupported('empty class');
    return { kind: 'chars', choices };
  }

  private classMember(): string[] {
    const c = this.source[this.at++] as string;
    if (c === '\\') {
      if (this.source[this.at] === 'b') {
        this.at++;
        return ['\b'];
      }
      return this.escape();
    }
    return [c];
  }

  private quantified(atom: Node): Node {
    let node = atom;
    for (;;) {
      const c = this.source[this.at];
      let min: number;
      let max: number;
      if (c === '*') [min, max] = [0, OPEN_REPEAT];
      else if (c === '+') [min, max] = [1, 1 + OPEN_REPEAT];
      else if (c === '?') [min, max] = [0, 1];
      else if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
        if (!m) return node; // a literal `{`, as RegExp without the u flag reads it
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? min + OPEN_REPEAT : Number(m[3]);
        if (max < min || min > 1000) throw new Unsupported('repetition bounds');
        this.at += m[0].length - 1;
      } else return node;
      this.at++;
      if (this.source[this.at] === '?') this.at++; // lazy: the same strings
      node = { kind: 'repeat', node, min, max };
    }
  }
}

function produce(node: Node, random: Random): string {
  switch (node.kind) {
    case 'chars':
      return random.pick(node.choices);
    case 'seq':
      return node.items.map((item) => produce(item, random)).join('');
    case 'alt':
      return produce(random.pick(node.options), random);
    case 'repeat': {
      let out = '';
      const count = random.int(node.min, node.max);
      for (let i = 0; i < count; i++) out += produce(node.node, random);
      return out;
    }
  }
}

/** Strings tried against patterns the parser does not cover. */
const CANDIDATES = ['', 'a', 'x', 'z', 'A', '0', '1', '42', 'abc', 'sample', 'Sample', 'a1', 'x-1', 'a_b', 'a.b', 'a b', 'ABC', '2026-01-01', 'user@example.com', 'https://example.com/'];

/**
 * A string matching `pattern` (ajv's RegExp reading: unanchored, `u` flag) accepted by `accept`
 * (the caller's length bounds), or undefined when none was found in `tries` attempts.
 */
export function patternSample(pattern: string, random: Random, accept: (s: string) => boolean = () => true, tries = 20): string | undefined {
  let regexp: RegExp;
  try {
    regexp = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  const good = (s: string): boolean => regexp.test(s) && accept(s);
  try {
    const tree = new Parser(pattern).parse();
    for (let i = 0; i < tries; i++) {
      const s = produce(tree, random);
      if (good(s)) return s;
    }
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
  }
  const start = random.int(0, CANDIDATES.length - 1);
  for (let i = 0; i < CANDIDATES.length; i++) {
    const s = CANDIDATES[(start + i) % CANDIDATES.length] as string;
    if (good(s)) return s;
  }
  return undefined;
}
