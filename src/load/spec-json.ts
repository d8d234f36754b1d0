import { InputError } from './diagnostics.js';

/**
 * JSON.parse with a usable error: V8's messages only sometimes carry a position, so on failure
 * a small scanner finds the offset of the first syntax error and reports its line and column.
 */
export function parseJsonDocument(rawText: string, file: string): unknown {
  // A byte order mark is not JSON, but editors write it; it carries no meaning.
  const text = rawText.charCodeAt(0) === 0xfeff ? rawText.slice(1) : rawText;
  try {
    return JSON.parse(text);
  } catch (error) {
    const { offset, message } = locateJsonSyntaxError(text);
    const { line, column } = lineAndColumn(text, offset);
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new InputError([
      { file, line, column, pointer: '', message: `invalid JSON: ${message}`, hint: `JSON.parse said: ${detail}` },
    ]);
  }
}

/** 1-based line and column (in UTF-16 code units) of an offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class JsonSyntaxError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/** Scans `text` as strict JSON (RFC 8259) and returns where and why it first fails. */
export function locateJsonSyntaxError(text: string): { offset: number; message: string } {
  let pos = 0;

  const fail = (message: string, at = pos): never => {
    throw new JsonSyntaxError(at, message);
  };
  const describe = (at: number): string => (at >= text.length ? 'end of input' : `'${text[at]}'`);
  const skipWhitespace = (): void => {
    while (pos < text.length && ' \t\n\r'.includes(text[pos]!)) pos++;
  };
  const expectLiteral = (word: string): void => {
    if (text.startsWith(word, pos)) pos += word.length;
    else fail(`unexpected ${describe(pos)}`);
  };

  const parseString = (): void => {
    pos++; // opening quote
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        pos++;
        return;
      }
      if (c < 0x20) fail('control character in string (escape it)');
      if (c === 0x5c) {
        const next = text[pos + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6))) fail('bad \\u escape in string');
          pos += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) {
          pos += 2;
        } else {
          fail('bad escape in string');
        }
        continue;
      }
      pos++;
    }
    fail('unterminated string');
  };

  const parseNumber = (): void => {
    const match = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(text.slice(pos, pos + 400));
    if (!match) fail(`unexpected ${describe(pos)}`);
    pos += match![0].length;
  };

  const parseValue = (depth: number): void => {
    if (depth > 10_000) fail('nesting too deep');
    skipWhitespace();
    const c = text[pos];
    if (c === '{') {
      pos++;
      skipWhitespace();
      if (text[pos] === '}') {
        pos++;
        return;
      }
      for (;;) {
        skipWhitespace();
        if (text[pos] !== '"') fail(`expected a property name in double quotes, found ${describe(pos)}`);
        parseString();
        skipWhitespace();
        if (text[pos] !== ':') fail(`expected ':' after property name, found ${describe(pos)}`);
        pos++;
        parseValue(depth + 1);
        skipWhitespace();
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (text[pos] === '}') {
          pos++;
          return;
        }
        fail(`expected ',' or '}' after property value, found ${describe(pos)}`);
      }
    }
    if (c === '[') {
      pos++;
      skipWhitespace();
      if (text[pos] === ']') {
        pos++;
        return;
      }
      for (;;) {
        parseValue(depth + 1);
        skipWhitespace();
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (text[pos] === ']') {
          pos++;
          return;
        }
        fail(`expected ',' or ']' after array element, found ${describe(pos)}`);
      }
    }
    if (c === '"') return parseString();
    if (c === 't') return expectLiteral('true');
    if (c === 'f') return expectLiteral('false');
    if (c === 'n') return expectLiteral('null');
    return parseNumber();
  };

  try {
    parseValue(0);
    skipWhitespace();
    if (pos < text.length) fail(`unexpected ${describe(pos)} after the document`);
    return { offset: 0, message: 'not parseable as JSON' };
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { offset: error.offset, message: error.message };
    throw error;
  }
}
