// The proxy runtime on its own, with a fetch that records what it is asked: URL joining,
// base URL variables, and the caller's cancellation.
import { describe, expect, test } from 'vitest';
import { createUpstream, type HttpBinding } from '../../src/runtime/proxy/index.js';

const binding: HttpBinding = { method: 'GET', path: '/repos/{owner}', parameters: [{ in: 'path', name: 'owner', argument: 'owner', style: 'simple', explode: false }], structured: false };

function recordingFetch(urls: string[], answer: () => Promise<Response> = async () => new Response('ok')): typeof fetch {
  return (async (input: string | URL | Request) => {
    urls.push(String(input));
    return answer();
  }) as typeof fetch;
}

describe('createUpstream', () => {
  test('a base URL without a path, with or without its slash, is joined with one slash', async () => {
    for (const baseUrl of ['https://api.example.com', 'https://api.example.com/', 'https://api.example.com/v3/']) {
      const urls: string[] = [];
      await createUpstream({ baseUrl }, { fetch: recordingFetch(urls), env: {} }).call(binding, { owner: 'o' }, { signal: new AbortController().signal });
      expect(urls).toEqual([`${baseUrl.replace(/\/$/, '')}/repos/o`]);
    }
  });

  test('base URL variables: the environment overrides the default; a value outside enum is a tool error naming it', async () => {
    const settings = { baseUrl: 'https://{region}.example.com', variables: { region: { default: 'eu', env: 'REGION', enum: ['eu', 'us'] } } };
    const urls: string[] = [];
    const signal = new AbortController().signal;
    await createUpstream(settings, { fetch: recordingFetch(urls), env: { REGION: 'us' } }).call(binding, { owner: 'o' }, { signal });
    await createUpstream(settings, { fetch: recordingFetch(urls), env: {} }).call(binding, { owner: 'o' }, { signal });
    expect(urls).toEqual(['https://us.example.com/repos/o', 'https://eu.example.com/repos/o']);
    const refused = await createUpstream(settings, { fetch: recordingFetch(urls), env: { REGION: 'mars' } }).call(binding, { owner: 'o' }, { signal });
    expect(refused).toEqual({ isError: true, content: [{ type: 'text', text: 'REGION=mars is not one of eu, us' }] });
    expect(urls).toHaveLength(2);
  });

  test("the caller's cancellation aborts the upstream request and is rethrown, not turned into a tool error", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const fetchImpl = (async (_input: unknown, init?: RequestInit) => {
      seen = init?.signal ?? undefined;
      return new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    }) as typeof fetch;
    const call = createUpstream({ baseUrl: 'https://api.example.com' }, { fetch: fetchImpl, env: {} }).call(binding, { owner: 'o' }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort(new Error('cancelled by the client'));
    await expect(call).rejects.toThrow('aborted');
    expect(seen?.aborted).toBe(true);
  });

  test('a path argument of . or .. never climbs out of the path template', async () => {
    const urls: string[] = [];
    const upstream = createUpstream({ baseUrl: 'https://api.example.com/v3' }, { fetch: recordingFetch(urls), env: {} });
    for (const owner of ['..', '.']) {
      const result = await upstream.call(binding, { owner }, { signal: new AbortController().signal });
      expect(result.isError).toBe(true);
    }
    await upstream.call(binding, { owner: '...' }, { signal: new AbortController().signal });
    await upstream.call(binding, { owner: '%2e%2E' }, { signal: new AbortController().signal });
    // A typed-in '%2e' is sent as text (%25 2e), which no parser takes for a dot.
    expect(urls).toEqual(['https://api.example.com/v3/repos/...', 'https://api.example.com/v3/repos/%252e%252E']);
  });
});
