/// <reference types="node" />
/**
 * The scopes a message needs, from the manifest's `scopes`: a tools/call needs its tool's, a
 * prompts/get its prompt's, a resource read or subscription its resource's (or the first matching
 * template's), a 2026-07-28 subscriptions/listen those of every resource it names, a
 * completion/complete its prompt's or template's. A batch needs the union of its requests'. Known from the body; at 2026-07-28 the
 * `Mcp-Name` header names the tool or prompt when the body does not (it must agree, stateless.ts checks).
 * Which rule a method follows is its `scope` in the method table (protocol/methods.ts).
 */
import type { HeaderValues } from '../transports/http/http-exchange.js';
import { METHOD_INFO } from '../protocol/methods.js';
import { compileUriTemplate, type UriTemplateMatcher } from '../protocol/uri-template.js';
import type { AuthSettings } from './settings.js';

const NONE: readonly string[] = [];

export class ScopeRules {
  private readonly settings: AuthSettings;
  private readonly templates: [UriTemplateMatcher, string[]][];
  /** Whether any tool, prompt, resource or template needs a scope: without one, no message is read. */
  private readonly any: boolean;

  constructor(settings: AuthSettings) {
    this.settings = settings;
    this.templates = Object.entries(settings.resourceTemplateScopes ?? {}).map(
      ([template, scopes]) => [compileUriTemplate(template), scopes],
    );
    const tables = [
      settings.toolScopes,
      settings.promptScopes,
      settings.resourceScopes,
      settings.resourceTemplateScopes,
    ];
    this.any = tables.some((table) => table !== undefined && Object.keys(table).length > 0);
  }

  required(message: unknown, headers: HeaderValues): readonly string[] {
    if (!this.any) return NONE;
    if (!Array.isArray(message)) return this.requiredBy(message, headers);
    const all = new Set<string>();
    for (const item of message) for (const scope of this.requiredBy(item, headers)) all.add(scope);
    return [...all];
  }

  /** A resource's own scopes, or else those of the first template it matches. */
  private resource(uri: string): readonly string[] {
    const fixed = own(this.settings.resourceScopes, uri);
    if (fixed !== NONE) return fixed;
    return this.templates.find(([matcher]) => matcher.match(uri) !== undefined)?.[1] ?? NONE;
  }

  private requiredBy(message: unknown, headers: HeaderValues): readonly string[] {
    if (typeof message !== 'object' || message === null) return NONE;
    const { method, params } = message as { method?: unknown; params?: unknown };
    const rule = typeof method === 'string' ? METHOD_INFO.get(method)?.scope : undefined;
    switch (rule) {
      case 'tool':
        return own(this.settings.toolScopes, named(params, headers));
      case 'prompt':
        return own(this.settings.promptScopes, named(params, headers));
      case 'resource': {
        const uri = param(params, 'uri');
        return uri === undefined ? NONE : this.resource(uri);
      }
      case 'listen': {
        // 2026-07-28: hearing that a resource changed needs what reading it needs.
        const notifications =
          typeof params === 'object' && params !== null
            ? (params as Record<string, unknown>)['notifications']
            : undefined;
        const uris =
          typeof notifications === 'object' && notifications !== null
            ? (notifications as Record<string, unknown>)['resourceSubscriptions']
            : undefined;
        if (!Array.isArray(uris)) return NONE;
        return [
          ...new Set(uris.flatMap((uri) => (typeof uri === 'string' ? this.resource(uri) : NONE))),
        ];
      }
      case 'completion': {
        // Completing a prompt's or a template's arguments reveals what they accept: the same scopes.
        const ref =
          typeof params === 'object' && params !== null
            ? (params as Record<string, unknown>)['ref']
            : undefined;
        if (typeof ref !== 'object' || ref === null) return NONE;
        const { type, name, uri } = ref as { type?: unknown; name?: unknown; uri?: unknown };
        if (type === 'ref/prompt' && typeof name === 'string')
          return own(this.settings.promptScopes, name);
        if (type === 'ref/resource' && typeof uri === 'string') {
          const template = own(this.settings.resourceTemplateScopes, uri);
          return template !== NONE ? template : own(this.settings.resourceScopes, uri);
        }
        return NONE;
      }
      default:
        return NONE;
    }
  }
}

function param(params: unknown, key: string): string | undefined {
  const value =
    typeof params === 'object' && params !== null
      ? (params as Record<string, unknown>)[key]
      : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** The tool or prompt: `params.name`, else (2026-07-28) the `Mcp-Name` header. */
function named(params: unknown, headers: HeaderValues): string | undefined {
  const header = headers['mcp-name'];
  return param(params, 'name') ?? (typeof header === 'string' ? header : undefined);
}

/** `table[key]` when it is the table's own entry (a tool named `__proto__` is just a name). */
function own(
  table: Record<string, string[]> | undefined,
  key: string | undefined,
): readonly string[] {
  return table !== undefined && key !== undefined && Object.hasOwn(table, key)
    ? (table[key] as string[])
    : NONE;
}
