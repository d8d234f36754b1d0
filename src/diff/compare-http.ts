/**
 * The HTTP side of proxied tools: each tool's `http` binding and the manifest's `upstream`. MCP
 * callers never see either (they send the same arguments and get the same results), so most
 * changes here are `compatible` and reported so that nobody misses them; two kinds break someone:
 * an argument callers still send that no longer reaches the upstream (their call silently means
 * less), and a change that makes the people running the server set an environment variable they
 * did not need before (or that stops reading one they set). The rules are listed in docs/workflow.md.
 */
import type { HttpBindingModel, HttpParameterModel, UpstreamAuthModel, UpstreamModel } from '../model/service-model.js';
import { variablesOf } from '../runtime/proxy/credentials.js';
import { compareFields, type FieldRule } from './compare-items.js';
import type { Finding, Severity } from './finding.js';
import { childPointer, isObject, sameJson, show, sortedUnion, type JsonObject } from './json-values.js';

/** What the copied proxy runtime uses when `upstream` leaves them out (runtime/proxy/upstream.ts). */
const DEFAULT_LIMITS = { timeoutMs: 30_000, maxResponseBytes: 10 * 1024 * 1024 };

export const UPSTREAM_ITEM = 'upstream';

/** One tool's binding, old against new; `inputSchema` is the new tool's, to tell a dropped argument. */
export function compareBindings(
  before: HttpBindingModel | undefined,
  after: HttpBindingModel | undefined,
  upstreams: { old: UpstreamModel | undefined; new: UpstreamModel | undefined },
  newInputSchema: JsonObject,
  at: string,
  item: string,
): Finding[] {
  const here = childPointer(at, 'http');
  if (before === undefined && after === undefined) return [];
  if (before === undefined) {
    return [{ kind: 'http-binding', severity: 'compatible', item, pointer: here, message: `now proxies ${operation(after!)}`, to: operation(after!) }];
  }
  if (after === undefined) {
    // Its handler file calls the generated proxy, which no longer knows the tool.
    return [{ kind: 'http-binding', severity: 'breaking', item, pointer: here, message: `no longer proxies ${operation(before)}: its handler must now answer by itself`, from: operation(before) }];
  }
  const findings: Finding[] = [];
  const field = (kind: string, key: 'method' | 'path' | 'wrapOutput', what: string): void => {
    if (before[key] === after[key]) return;
    const finding: Finding = { kind, severity: 'compatible', item, pointer: childPointer(here, key), message: `${what} ${change(before[key], after[key])} (MCP callers send the same arguments)` };
    if (before[key] !== undefined) finding.from = before[key];
    if (after[key] !== undefined) finding.to = after[key];
    findings.push(finding);
  };
  field('http-method', 'method', 'HTTP method');
  field('http-path', 'path', 'path template');
  field('http-wrap-output', 'wrapOutput', 'wrapOutput');
  findings.push(...compareParameters(before.parameters, after.parameters, childPointer(here, 'parameters'), item));
  if (!sameJson(before.body ?? null, after.body ?? null)) {
    const finding: Finding = { kind: 'http-body', severity: 'compatible', item, pointer: childPointer(here, 'body'), message: `request body ${change(before.body, after.body)}` };
    if (before.body !== undefined) finding.from = before.body;
    if (after.body !== undefined) finding.to = after.body;
    findings.push(finding);
  }
  findings.push(...droppedArguments(before, after, newInputSchema, at, item));
  findings.push(...compareToolAuth(before.auth ?? [], after.auth ?? [], upstreams, childPointer(here, 'auth'), item));
  return findings;
}

function operation(binding: HttpBindingModel): string {
  return `${binding.method} ${binding.path}`;
}

function change(before: unknown, after: unknown): string {
  return before === undefined ? `added: ${show(after)}` : after === undefined ? `removed (was ${show(before)})` : `changed from ${show(before)} to ${show(after)}`;
}

/** A parameter's upstream identity: its location and name (header names are case-insensitive). */
function parameterKey(p: HttpParameterModel): string {
  return `${p.in}/${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
}

const SERIALIZATION: readonly (keyof HttpParameterModel)[] = ['style', 'explode', 'allowReserved', 'contentType'];

/**
 * Parameters matched by location and name. A removed one and an added one fed by the same argument
 * (each the other's only match) are one move: the argument now goes elsewhere.
 */
function compareParameters(before: readonly HttpParameterModel[], after: readonly HttpParameterModel[], at: string, item: string): Finding[] {
  const oldByKey = new Map(before.map((p) => [parameterKey(p), p]));
  const newByKey = new Map(after.map((p) => [parameterKey(p), p]));
  const removed = [...oldByKey.keys()].filter((k) => !newByKey.has(k)).sort();
  const added = [...newByKey.keys()].filter((k) => !oldByKey.has(k)).sort();
  const sameArgument = (r: string, a: string): boolean => oldByKey.get(r)!.argument === newByKey.get(a)!.argument;
  const moves = new Map<string, string>();
  for (const r of removed) {
    const matches = added.filter((a) => sameArgument(r, a));
    if (matches.length === 1 && removed.filter((other) => sameArgument(other, matches[0]!)).length === 1) moves.set(r, matches[0]!);
  }
  const pointer = (p: HttpParameterModel): string => childPointer(at, p.in, p.name);
  const where = (p: HttpParameterModel): string => `${p.in} parameter ${show(p.name)}`;
  const findings: Finding[] = [];
  for (const r of removed) {
    const p = oldByKey.get(r)!;
    const to = moves.get(r);
    if (to !== undefined) {
      const q = newByKey.get(to)!;
      findings.push({ kind: 'http-parameter-moved', severity: 'compatible', item, pointer: pointer(q), message: `argument ${show(p.argument)} now goes to the ${where(q)} (was the ${where(p)})`, from: p, to: q });
    } else {
      findings.push({ kind: 'http-parameter-removed', severity: 'compatible', item, pointer: pointer(p), message: `${where(p)} no longer sent (it carried argument ${show(p.argument)})`, from: p });
    }
  }
  const movedTo = new Set(moves.values());
  for (const a of added) {
    const q = newByKey.get(a)!;
    if (!movedTo.has(a)) findings.push({ kind: 'http-parameter-added', severity: 'compatible', item, pointer: pointer(q), message: `${where(q)} added, from argument ${show(q.argument)}`, to: q });
  }
  for (const key of [...oldByKey.keys()].filter((k) => newByKey.has(k)).sort()) {
    const p = oldByKey.get(key)!;
    const q = newByKey.get(key)!;
    if (p.argument !== q.argument) {
      findings.push({ kind: 'http-parameter', severity: 'compatible', item, pointer: childPointer(pointer(q), 'argument'), message: `${where(q)} now carries argument ${show(q.argument)} (was ${show(p.argument)})`, from: p.argument, to: q.argument });
    }
    const serialization = (x: HttpParameterModel): JsonObject => Object.fromEntries(SERIALIZATION.filter((k) => x[k] !== undefined).map((k) => [k, x[k]]));
    if (!sameJson(serialization(p), serialization(q))) {
      const changed = SERIALIZATION.filter((k) => p[k] !== q[k]);
      const detail = changed.map((k) => `${k} ${show(p[k] ?? null)} → ${show(q[k] ?? null)}`).join(', ');
      findings.push({ kind: 'http-serialization', severity: 'compatible', item, pointer: pointer(q), message: `${where(q)} serialized differently: ${detail}`, from: serialization(p), to: serialization(q) });
    }
  }
  return findings;
}

/** The arguments a binding sends upstream, in parameters or as the body. */
function sentArguments(binding: HttpBindingModel): Set<string> {
  const sent = new Set(binding.parameters.map((p) => p.argument));
  if (binding.body !== undefined) sent.add(binding.body.argument);
  return sent;
}

/**
 * An argument the old binding sent that callers may still pass (a property of the new input) but
 * that the new binding sends nowhere: calls still succeed, without what the caller asked for.
 */
function droppedArguments(before: HttpBindingModel, after: HttpBindingModel, newInputSchema: JsonObject, at: string, item: string): Finding[] {
  const properties = isObject(newInputSchema['properties']) ? newInputSchema['properties'] : {};
  const still = sentArguments(after);
  return [...sentArguments(before)]
    .filter((argument) => Object.hasOwn(properties, argument) && !still.has(argument))
    .sort()
    .map((argument) => ({
      kind: 'http-argument-dropped',
      severity: 'breaking' as const,
      item,
      pointer: childPointer(at, 'inputSchema', 'properties', argument),
      message: `argument ${show(argument)} is still accepted but no longer sent upstream: callers that pass it silently lose its effect`,
    }));
}

/** The environment variables a scheme reads, in the order a message lists them (the proxy's own list). */
function schemeEnv(scheme: UpstreamAuthModel | undefined): string[] {
  return scheme === undefined ? [] : variablesOf(scheme);
}

/**
 * A tool's `auth`: alternatives in order of preference, the first with all its variables set wins.
 * Whoever runs the server configured one of the old alternatives: removing any of them (or asking
 * for credentials where none were sent) leaves a running deployment without them.
 */
function compareToolAuth(before: readonly string[], after: readonly string[], upstreams: { old: UpstreamModel | undefined; new: UpstreamModel | undefined }, at: string, item: string): Finding[] {
  if (sameJson(before, after)) return [];
  const envOf = (names: readonly string[], upstream: UpstreamModel | undefined): string => names.flatMap((n) => schemeEnv(upstream?.auth?.[n])).join(', ');
  const lost = before.filter((name) => !after.includes(name));
  let severity: Severity = 'compatible';
  let why: string;
  if (before.length === 0) {
    severity = 'breaking';
    why = `now sends credentials (${after.join(', ')}): whoever runs the server must set ${envOf(after, upstreams.new) || 'its variables'}`;
  } else if (after.length === 0) {
    why = 'no longer sends credentials';
  } else if (lost.length > 0) {
    severity = 'breaking';
    why = `scheme ${lost.map((n) => show(n)).join(', ')} no longer accepted: a server configured with ${envOf(lost, upstreams.old) || 'it'} sends no credentials; set ${envOf(after, upstreams.new) || 'another'}`;
  } else {
    why = `credential alternatives changed from ${show(before)} to ${show(after)}`;
  }
  return [{ kind: 'http-auth', severity, item, pointer: at, message: why, from: [...before], to: [...after] }];
}

/** The manifests' `upstream`, one item: base URL, variables, fixed headers, limits, credential schemes. */
export function compareUpstreams(before: UpstreamModel | undefined, after: UpstreamModel | undefined): Finding[] {
  if (before === undefined && after === undefined) return [];
  const item = UPSTREAM_ITEM;
  const at = '/upstream';
  const o = before ?? ({} as Partial<UpstreamModel>);
  const n = after ?? ({} as Partial<UpstreamModel>);
  const findings: Finding[] = [];
  if (o.baseUrl !== n.baseUrl) {
    const finding: Finding = { kind: 'upstream-base-url', severity: 'compatible', item, pointer: childPointer(at, 'baseUrl'), message: `base URL ${change(o.baseUrl, n.baseUrl)}` };
    if (o.baseUrl !== undefined) finding.from = o.baseUrl;
    if (n.baseUrl !== undefined) finding.to = n.baseUrl;
    findings.push(finding);
  }
  for (const [key, fallback] of Object.entries(DEFAULT_LIMITS) as [keyof typeof DEFAULT_LIMITS, number][]) {
    const was = o[key] ?? fallback;
    const now = n[key] ?? fallback;
    if (was === now) continue;
    // A lower limit refuses what a higher one let through.
    const severity: Severity = now < was ? 'breaking' : 'compatible';
    findings.push({ kind: 'upstream-limit', severity, item, pointer: childPointer(at, key), message: `${key} ${now < was ? 'lowered' : 'raised'} from ${was} to ${now}${now < was ? ': calls that took longer or answered more now fail' : ''}`, from: was, to: now });
  }
  findings.push(...compareFields(o.headers ?? {}, n.headers ?? {}, {}, childPointer(at, 'headers'), item, 'header '));
  findings.push(...compareVariables(o.variables ?? {}, n.variables ?? {}, childPointer(at, 'variables'), item));
  findings.push(...compareSchemes(o.auth ?? {}, n.auth ?? {}, childPointer(at, 'auth'), item));
  return findings.map((f) => (f.kind === 'field' ? { ...f, kind: 'upstream-header' } : f));
}

type Variable = NonNullable<UpstreamModel['variables']>[string];

/**
 * Base URL variables. Whoever runs the server may have set a variable's `env` (GitHub Enterprise's
 * host): a variable or its `env` gone, renamed, or an `enum` that now refuses a value, breaks them.
 */
function compareVariables(before: Record<string, Variable>, after: Record<string, Variable>, at: string, item: string): Finding[] {
  const findings: Finding[] = [];
  for (const name of sortedUnion(Object.keys(before), Object.keys(after))) {
    const was = before[name];
    const now = after[name];
    const here = childPointer(at, name);
    if (now === undefined) {
      const severity: Severity = was?.env !== undefined ? 'breaking' : 'compatible';
      findings.push({ kind: 'upstream-variable', severity, item, pointer: here, message: `variable ${show(name)} removed${was?.env !== undefined ? `: ${was.env} is no longer read` : ''}`, from: was });
      continue;
    }
    if (was === undefined) {
      findings.push({ kind: 'upstream-variable', severity: 'compatible', item, pointer: here, message: `variable ${show(name)} added (default ${show(now.default)})`, to: now });
      continue;
    }
    if (was.env !== now.env) {
      const severity: Severity = was.env !== undefined ? 'breaking' : 'compatible';
      const message = was.env === undefined ? `variable ${show(name)} can now be set by ${now.env}` : now.env === undefined ? `variable ${show(name)}: ${was.env} is no longer read` : `variable ${show(name)} is now read from ${now.env} (was ${was.env})`;
      findings.push({ kind: 'upstream-env', severity, item, pointer: childPointer(here, 'env'), message, ...(was.env !== undefined ? { from: was.env } : {}), ...(now.env !== undefined ? { to: now.env } : {}) });
    }
    if (was.default !== now.default) {
      findings.push({ kind: 'upstream-variable', severity: 'compatible', item, pointer: childPointer(here, 'default'), message: `variable ${show(name)} default changed from ${show(was.default)} to ${show(now.default)}`, from: was.default, to: now.default });
    }
    if (!sameJson(was.enum ?? null, now.enum ?? null)) {
      const refused = now.enum === undefined ? [] : was.enum === undefined ? ['any other value'] : was.enum.filter((v) => !now.enum!.includes(v));
      const severity: Severity = refused.length > 0 ? 'breaking' : 'compatible';
      const message = `variable ${show(name)} enum ${change(was.enum, now.enum)}${refused.length > 0 ? `: a configured ${refused.map((v) => show(v)).join(', ')} is now refused` : ''}`;
      findings.push({ kind: 'enum', severity, item, pointer: childPointer(here, 'enum'), message, ...(was.enum !== undefined ? { from: was.enum } : {}), ...(now.enum !== undefined ? { to: now.enum } : {}) });
    }
  }
  return findings;
}

/** The fields of a scheme that name environment variables: renaming one makes a running server lose it. */
const ENV_FIELDS = ['env', 'usernameEnv', 'passwordEnv', 'clientIdEnv', 'clientSecretEnv'];

/**
 * Credential schemes by name. Which tools use a scheme is each tool's `http.auth` (compared there);
 * here, how a scheme reads and sends its secret.
 */
function compareSchemes(before: Record<string, UpstreamAuthModel>, after: Record<string, UpstreamAuthModel>, at: string, item: string): Finding[] {
  const findings: Finding[] = [];
  for (const name of sortedUnion(Object.keys(before), Object.keys(after))) {
    const was = before[name];
    const now = after[name];
    const here = childPointer(at, name);
    if (was === undefined || now === undefined) {
      const env = schemeEnv(now ?? was).join(', ');
      const message = now === undefined ? `credential scheme ${show(name)} removed (it read ${env})` : `credential scheme ${show(name)} added (reads ${env})`;
      findings.push({ kind: 'upstream-auth', severity: 'compatible', item, pointer: here, message, ...(was !== undefined ? { from: was } : {}), ...(now !== undefined ? { to: now } : {}) });
      continue;
    }
    if (was.type !== now.type) {
      const message = `credential scheme ${show(name)} changed from ${was.type} to ${now.type}: whoever runs the server must set ${schemeEnv(now).join(', ')}`;
      findings.push({ kind: 'upstream-auth', severity: 'breaking', item, pointer: childPointer(here, 'type'), message, from: was, to: now });
      continue;
    }
    const rules: Record<string, FieldRule> = { type: 'skip', ...Object.fromEntries(ENV_FIELDS.map((f) => [f, { kind: 'upstream-env', severity: 'breaking' as const }])) };
    for (const finding of compareFields(was as unknown as JsonObject, now as unknown as JsonObject, rules, here, item, `credential scheme ${show(name)} `)) {
      const renamed = finding.kind === 'upstream-env' ? `: whoever runs the server must set ${show(finding.to)} instead of ${show(finding.from)}` : '';
      findings.push({ ...finding, kind: finding.kind === 'field' ? 'upstream-auth' : finding.kind, message: finding.message + renamed });
    }
  }
  return findings;
}
