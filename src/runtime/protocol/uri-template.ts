/**
 * Matching URIs against resource templates. Supported: RFC 6570 level 1 `{var}` (matches one
 * non-empty path segment: anything but `/`, `?` and `#`) and the level 2 reserved form `{+var}`
 * (matches any non-empty text, slashes included). Matched values are percent-decoded. Other
 * operators (`{#x}`, `{?x}`, `{/x}`, …) are rejected when the server is created.
 */
export interface UriTemplateMatcher {
  readonly template: string;
  /** The template's variables with their values, or undefined when `uri` does not match. */
  match(uri: string): Record<string, string> | undefined;
}

const EXPRESSION = /\{([^}]*)\}/g;
const VARIABLE_NAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

export function compileUriTemplate(template: string): UriTemplateMatcher {
  const names: string[] = [];
  let pattern = '^';
  let last = 0;
  for (const expression of template.matchAll(EXPRESSION)) {
    // `index` is always set on a match; older TypeScript releases type it optional.
    const index = expression.index ?? 0;
    pattern += escapeRegExp(template.slice(last, index));
    last = index + expression[0].length;
    let name = expression[1]!;
    const reserved = name.startsWith('+');
    if (reserved) name = name.slice(1);
    if (!VARIABLE_NAME.test(name)) {
      throw new Error(
        `URI template ${template}: "{${expression[1]}}" is not supported; the runtime matches {name} and {+name} only`,
      );
    }
    names.push(name);
    pattern += reserved ? '(.+?)' : '([^/?#]+)';
  }
  const tail = template.slice(last);
  if (tail.includes('{') || tail.includes('}'))
    throw new Error(`URI template ${template}: unbalanced braces`);
  const regex = new RegExp(pattern + escapeRegExp(tail) + '$');
  return {
    template,
    match(uri) {
      const found = regex.exec(uri);
      if (found === null) return undefined;
      const variables: Record<string, string> = Object.create(null) as Record<string, string>;
      for (let i = 0; i < names.length; i++) variables[names[i]!] = percentDecode(found[i + 1]!);
      return variables;
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
