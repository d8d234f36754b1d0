/**
 * URI template parsing for manifests: the checks in manifest-checks.ts and the model's list of a
 * template's variables both read templates through here. (The runtime has its own matcher, since
 * it imports nothing outside src/runtime.)
 */

/** A `{…}` expression of an RFC 6570 template. */
export interface UriTemplateExpression {
  /** Offset of `{` in the template. */
  offset: number;
  operator: string;
  /** Variable names, without `*` or `:n` modifiers. */
  names: string[];
  text: string;
}

export interface ParsedUriTemplate {
  expressions: UriTemplateExpression[];
  /** Offset of a stray `{` or `}`, when there is one. */
  unbalancedAt?: number;
}

/** Splits a URI template into its expressions; checking them is up to the caller. */
export function parseUriTemplate(template: string): ParsedUriTemplate {
  const expressions: UriTemplateExpression[] = [];
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c === '}') return { expressions, unbalancedAt: i };
    if (c !== '{') continue;
    const end = template.indexOf('}', i);
    const nested = template.indexOf('{', i + 1);
    if (end < 0 || (nested >= 0 && nested < end)) return { expressions, unbalancedAt: i };
    const body = template.slice(i + 1, end);
    const operator = /^[+#./;?&=,!@|]/.test(body) ? body[0]! : '';
    const names = body
      .slice(operator.length)
      .split(',')
      .map((spec) => spec.replace(/(\*|:[0-9]*)$/, ''));
    expressions.push({ offset: i, operator, names, text: template.slice(i, end + 1) });
    i = end;
  }
  return { expressions };
}

/** Variable names in order of first appearance. */
export function uriTemplateVariables(template: string): string[] {
  const names = parseUriTemplate(template).expressions.flatMap((e) => e.names);
  return [...new Set(names)];
}
