/**
 * What the bundler says about a `pattern` (or a `patternProperties` name): whether it compiles as
 * ajv compiles it, and whether its shape risks catastrophic backtracking. Its own module, with the
 * verdicts kept per pattern text: a large manifest repeats the same few patterns in many tools.
 */

export interface PatternVerdict {
  /** Why the pattern is not a valid regular expression (the engine's message, without its prefix). */
  invalid?: string;
  /** Why the pattern may take exponential time (see catastrophicPattern). */
  risky?: string;
}

const verdicts = new Map<string, PatternVerdict>();

/** The verdict on one pattern, computed once per process. */
export function patternVerdict(pattern: string): PatternVerdict {
  let verdict = verdicts.get(pattern);
  if (verdict === undefined) {
    verdict = judge(pattern);
    verdicts.set(pattern, verdict);
  }
  return verdict;
}

function judge(pattern: string): PatternVerdict {
  try {
    // ajv compiles patterns with the `u` flag.
    new RegExp(pattern, 'u');
  } catch (error) {
    return { invalid: (error as Error).message.replace(/^Invalid regular expression: /, '') };
  }
  const risky = catastrophicPattern(pattern);
  return risky === undefined ? {} : { risky };
}

/**
 * Spots the classic shape of catastrophic backtracking: a group repeated without bound whose body
 * could itself be split many ways: every part of it repeated or optional, at least one part
 * without bound, as in `(a+)+` or `(\w+\s?)*`. A mandatory part like the `-` in `(-[a-z]+)*` pins
 * each round down, so that shape is left alone. A heuristic: it warns, it does not prove safety.
 */
export function catastrophicPattern(pattern: string): string | undefined {
  let found: string | undefined;
  const parser = new PatternParser(pattern, (end) => {
    found ??= `the group ending at character ${end} repeats a part that repeats itself`;
  });
  try {
    parser.alternatives();
  } catch {
    return undefined;
  }
  return found;
}

interface Atom {
  quantifier: 'none' | 'optional' | 'bounded' | 'unbounded';
  /** For groups: whether some alternative of the body can be split many ways. */
  splittable: boolean;
}

/** Just enough of a regex parser to see atoms, groups and quantifiers. */
class PatternParser {
  private i = 0;

  constructor(
    private readonly source: string,
    private readonly onRisk: (end: number) => void,
  ) {}

  /** Parses alternatives up to `)` or the end; true when one of them is splittable. */
  alternatives(): boolean {
    let splittable = false;
    for (;;) {
      const atoms = this.sequence();
      const freelyRepeated = atoms.every((a) => a.quantifier !== 'none' || a.splittable);
      const unbounded = atoms.some((a) => a.quantifier === 'unbounded' || a.splittable);
      if (atoms.length > 0 && freelyRepeated && unbounded) splittable = true;
      if (this.source[this.i] !== '|') return splittable;
      this.i += 1;
    }
  }

  private sequence(): Atom[] {
    const atoms: Atom[] = [];
    while (this.i < this.source.length && this.source[this.i] !== '|' && this.source[this.i] !== ')') {
      const c = this.source[this.i]!;
      let splittable = false;
      if (c === '(') {
        this.i += 1;
        const lookaround = /^\?(<?[=!])/.exec(this.source.slice(this.i));
        if (this.source[this.i] === '?') this.i += /^\?<[A-Za-z]/.test(this.source.slice(this.i)) ? this.source.indexOf('>', this.i) - this.i + 1 : 2;
        splittable = this.alternatives() && !lookaround;
        if (this.source[this.i] !== ')') throw new Error('unbalanced');
        this.i += 1;
      } else if (c === '[') {
        this.i += 1;
        while (this.i < this.source.length && this.source[this.i] !== ']') this.i += this.source[this.i] === '\\' ? 2 : 1;
        this.i += 1;
      } else if (c === '\\') {
        this.i += 2;
      } else if (c === '^' || c === '$') {
        this.i += 1;
        atoms.push({ quantifier: 'none', splittable: false });
        continue;
      } else {
        this.i += 1;
      }
      const groupEnd = this.i;
      const atom: Atom = { quantifier: this.quantifier(), splittable };
      if (atom.quantifier === 'unbounded' && atom.splittable) this.onRisk(groupEnd);
      atoms.push(atom);
    }
    return atoms;
  }

  private quantifier(): Atom['quantifier'] {
    const rest = this.source.slice(this.i);
    const match = /^(?:[*+?]|\{(\d+)(,(\d*))?\})\??/.exec(rest);
    if (!match) return 'none';
    this.i += match[0].length;
    const symbol = match[0][0];
    if (symbol === '*' || symbol === '+') return 'unbounded';
    if (symbol === '?') return 'optional';
    if (match[2] !== undefined && match[3] === '') return 'unbounded';
    return Number(match[3] ?? match[1]) > 1 || match[1] === '0' ? 'bounded' : 'none';
  }
}
