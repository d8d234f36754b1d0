/**
 * A scanner for the TypeScript declarations json-schema-to-typescript prints: it knows strings
 * and comments well enough to never cut inside one, finds top-level `export` declarations, and can
 * drop every comment. That is all the post-processing the compiler output needs.
 */

export interface ScannedDeclaration {
  /** `interface`, `type`, … */
  kind: string;
  name: string;
  /** Offset in the scanned output (after comment removal, when requested). */
  offset: number;
}

export interface ScanResult {
  text: string;
  declarations: ScannedDeclaration[];
}

const DECLARATION = /^export\s+(?:declare\s+)?(interface|type|const|enum|class|function)\s+([A-Za-z_$][A-Za-z0-9_$]*)/;

export function scanDeclarations(source: string, options: { dropComments: boolean }): ScanResult {
  let out = '';
  let depth = 0;
  let i = 0;
  const declarations: ScannedDeclaration[] = [];
  const atLineStart = (): boolean => out.length === 0 || out.endsWith('\n');

  while (i < source.length) {
    const c = source[i]!;
    if (c === '"' || c === "'" || c === '`') {
      const end = stringEnd(source, i);
      out += source.slice(i, end);
      i = end;
      continue;
    }
    if (c === '/' && (source[i + 1] === '*' || source[i + 1] === '/')) {
      const block = source[i + 1] === '*';
      const close = block ? source.indexOf('*/', i + 2) : source.indexOf('\n', i);
      const end = close === -1 ? source.length : block ? close + 2 : close;
      if (!options.dropComments) {
        out += source.slice(i, end);
        i = end;
        continue;
      }
      // A comment alone on its lines goes with its indentation and line break.
      const lineStart = out.lastIndexOf('\n') + 1;
      const aloneOnLine = /^[ \t]*$/.test(out.slice(lineStart)) && /^[ \t]*(\r?\n|$)/.test(source.slice(end));
      if (aloneOnLine) {
        out = out.slice(0, lineStart);
        const rest = /^[ \t]*(\r?\n)?/.exec(source.slice(end))!;
        i = end + rest[0].length;
      } else {
        i = end;
      }
      continue;
    }
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
    else if (c === 'e' && depth === 0 && atLineStart()) {
      const match = DECLARATION.exec(source.slice(i, i + 200));
      if (match) declarations.push({ kind: match[1]!, name: match[2]!, offset: out.length });
    }
    out += c;
    i++;
  }
  return { text: out, declarations };
}

/** Offset just past the string literal that starts at `start`. */
function stringEnd(source: string, start: number): number {
  const quote = source[start];
  let i = start + 1;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') i += 2;
    else if (c === quote) return i + 1;
    else i++;
  }
  return source.length;
}
