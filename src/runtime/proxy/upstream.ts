/**
 * The handler of a tool with an `http` binding: it builds the upstream request from the validated
 * arguments, calls it with `fetch` (the caller's cancellation and a timeout both abort it), follows
 * redirects only within the upstream's origin, and turns the answer into a tool result. A 2xx JSON
 * answer becomes `structuredContent`, which the server then checks against the tool's output
 * validator like any handler's; any other status is a tool error with the status and an excerpt.
 * Uses only what every JavaScript runtime with `fetch` has: no module is imported.
 */
import type { JsonObject, RequestContext } from '../api.js';
import {
  credentialFor,
  TokenCache,
  variablesOf,
  type Environment,
  type UpstreamAuth,
} from './credentials.js';
import { fillPath, serializeParameters, type HttpParameter } from './serialize.js';
import { readBounded, resultOf, toolError, type ProxyResult } from './answer.js';
import { BodyArgumentError, requestBodyOf, type BodyBinding } from './request-body.js';

/** Manifest `upstream`, as the generated `proxy.ts` passes it. */
export interface UpstreamSettings {
  baseUrl: string;
  variables?: Readonly<Record<string, { default: string; env?: string; enum?: readonly string[] }>>;
  timeoutMs?: number;
  maxResponseBytes?: number;
  headers?: Readonly<Record<string, string>>;
  auth?: Readonly<Record<string, UpstreamAuth>>;
}

/** One tool's `http` binding; `structured`: the tool has an outputSchema. */
export interface HttpBinding {
  method: string;
  path: string;
  parameters: readonly HttpParameter[];
  body?: BodyBinding;
  auth?: readonly string[];
  wrapOutput?: string;
  structured: boolean;
}

export interface UpstreamOptions {
  /** Where credentials and base URL variables are read; default `process.env` where there is one. */
  env?: Environment;
  /** The `fetch` to call; default the global one. */
  fetch?: typeof fetch;
}

export interface Upstream {
  call(
    binding: HttpBinding,
    input: unknown,
    context: Pick<RequestContext, 'signal'>,
  ): Promise<ProxyResult>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 5;

function defaultEnvironment(): Environment {
  const processLike = (globalThis as { process?: { env?: Environment } }).process;
  return processLike?.env ?? {};
}

/** A URL template of `upstream` with each `{variable}` filled in; a string is the reason it cannot be. */
function resolveUrl(template: string, settings: UpstreamSettings, env: Environment): URL | string {
  let problem: string | undefined;
  const filled = template.replace(/\{([^{}]*)\}/g, (_, name: string) => {
    const variable = settings.variables?.[name];
    const fromEnv = variable?.env !== undefined ? env[variable.env] : undefined;
    const value = fromEnv !== undefined && fromEnv !== '' ? fromEnv : (variable?.default ?? '');
    if (variable?.enum !== undefined && !variable.enum.includes(value))
      problem ??= `${variable.env ?? name}=${value} is not one of ${variable.enum.join(', ')}`;
    return value;
  });
  if (problem !== undefined) return problem;
  if (!URL.canParse(filled)) return `the upstream URL ${filled} is not a URL`;
  return new URL(filled);
}

/** The caller's cancellation and the timeout as one signal (AbortSignal.any is missing before Node 20.3). */
function combinedSignal(
  caller: AbortSignal,
  timeoutMs: number,
): { signal: AbortSignal; timedOut: () => boolean; done: () => void } {
  const controller = new AbortController();
  let timedOut = false;
  const abort = (): void => controller.abort(caller.reason);
  if (caller.aborted) abort();
  else caller.addEventListener('abort', abort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`upstream timeout after ${timeoutMs} ms`));
  }, timeoutMs);
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      caller.removeEventListener('abort', abort);
    },
  };
}

/** Only the credentials named by the manifest; no header of the MCP request is ever copied. */
async function buildRequest(
  settings: UpstreamSettings,
  binding: HttpBinding,
  args: Record<string, unknown>,
  base: URL,
  env: Environment,
  tokens: TokenCache,
  signal: AbortSignal,
): Promise<{ url: URL; init: RequestInit }> {
  const parts = serializeParameters(binding.parameters, args);
  const credential =
    binding.auth === undefined
      ? undefined
      : await credentialFor(binding.auth, settings.auth ?? {}, env, tokens, signal);
  // `new URL('https://api.github.com')` ends with a slash the path must not double.
  const root = base.href.endsWith('/') ? base.href.slice(0, -1) : base.href;
  const url = new URL(root + fillPath(binding.path, parts.path));
  const query = [...parts.query, ...(credential?.query ?? [])];
  if (query.length > 0) url.search = query.join('&');
  const headers = new Headers({ accept: 'application/json, */*;q=0.8' });
  for (const [name, value] of Object.entries(settings.headers ?? {})) headers.set(name, value);
  for (const [name, value] of parts.headers) headers.set(name, value);
  const cookies = [...parts.cookies, ...(credential?.cookies ?? [])];
  if (cookies.length > 0) headers.set('cookie', cookies.join('; '));
  for (const [name, value] of credential?.headers ?? []) headers.set(name, value);
  const body = requestBodyOf(binding.body, args);
  if (body?.contentType !== undefined) headers.set('content-type', body.contentType);
  return {
    url,
    init: {
      method: binding.method,
      headers,
      ...(body !== undefined ? { body: body.body } : {}),
      redirect: 'manual',
      signal,
    },
  };
}

/**
 * Sends the request, following a redirect only to the same origin (and at most five); a 303, or a
 * 301/302 after a POST, goes on as a GET without a body, as browsers do.
 */
async function send(
  fetchImpl: typeof fetch,
  url: URL,
  init: RequestInit,
): Promise<Response | string> {
  let current = url;
  let request = init;
  for (let hop = 0; ; hop++) {
    const response = await fetchImpl(current.href, request);
    const location = response.headers.get('location');
    if (
      response.status < 300 ||
      response.status > 399 ||
      location === null ||
      response.status === 304
    )
      return response;
    await response.body?.cancel();
    const next = URL.canParse(location, current.href) ? new URL(location, current) : undefined;
    if (next === undefined || next.origin !== url.origin) {
      return `upstream redirected ${init.method ?? 'GET'} ${current.pathname} to ${next?.origin ?? location}, another origin: not followed`;
    }
    if (hop === MAX_REDIRECTS) return `upstream redirected more than ${MAX_REDIRECTS} times`;
    if (
      response.status === 303 ||
      ((response.status === 301 || response.status === 302) && request.method === 'POST')
    ) {
      const headers = new Headers(request.headers);
      headers.delete('content-type');
      const { body: _body, ...rest } = request;
      request = { ...rest, method: request.method === 'HEAD' ? 'HEAD' : 'GET', headers };
    }
    current = next;
  }
}

/** An upstream API, called by proxied tools: built once per server by the generated `proxy.ts`. */
export function createUpstream(
  settings: UpstreamSettings,
  options: UpstreamOptions = {},
): Upstream {
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  const tokens = new TokenCache(fetchImpl, (template, env) => {
    const url = resolveUrl(template, settings, env);
    if (typeof url === 'string') throw new Error(url);
    return url.href;
  });
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = settings.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return {
    async call(binding, input, context) {
      const env = options.env ?? defaultEnvironment();
      const base = resolveUrl(settings.baseUrl, settings, env);
      if (typeof base === 'string') return toolError(base);
      const args = (typeof input === 'object' && input !== null ? input : {}) as JsonObject;
      const abort = combinedSignal(context.signal, timeoutMs);
      try {
        const { url, init } = await buildRequest(
          settings,
          binding,
          args,
          base,
          env,
          tokens,
          abort.signal,
        );
        const response = await send(fetchImpl, url, init);
        if (typeof response === 'string') return toolError(response);
        const body = await readBounded(response, maxBytes);
        if (body === undefined)
          return toolError(`upstream answered ${response.status} with more than ${maxBytes} bytes`);
        const withoutCredentials =
          binding.auth !== undefined &&
          !binding.auth.some((name) => credentialNamesSet(settings.auth?.[name], env));
        return resultOf(
          binding,
          url,
          response,
          body,
          withoutCredentials
            ? missingCredentials(binding.auth ?? [], settings.auth ?? {})
            : undefined,
        );
      } catch (error) {
        // The caller's cancellation is the runtime's to answer; anything else is the upstream's failure.
        if (context.signal.aborted) throw error;
        if (error instanceof BodyArgumentError) return toolError(error.message);
        if (abort.timedOut())
          return toolError(
            `upstream did not answer ${binding.method} ${binding.path} within ${timeoutMs} ms`,
          );
        return toolError(
          `upstream request ${binding.method} ${binding.path} failed: ${(error as Error).message}${causeOf(error)}`,
        );
      } finally {
        abort.done();
      }
    },
  };
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { message?: unknown } }).cause;
  return typeof cause?.message === 'string' ? ` (${cause.message})` : '';
}

function credentialNamesSet(scheme: UpstreamAuth | undefined, env: Environment): boolean {
  return scheme !== undefined && variablesOf(scheme).every((name) => (env[name] ?? '') !== '');
}

/** Said with a 401 or 403 when the request went without credentials. */
function missingCredentials(
  names: readonly string[],
  schemes: Readonly<Record<string, UpstreamAuth>>,
): string {
  const variables = names.flatMap((name) => {
    const scheme = schemes[name];
    return scheme === undefined ? [] : [variablesOf(scheme).join(' and ')];
  });
  return `no credentials were sent: set ${variables.join(' or ')}`;
}
