/**
 * An upstream answer → a tool result: 2xx JSON as `structuredContent` (or as text for a tool
 * without an outputSchema), other 2xx as text, image, audio or an embedded blob, and every other
 * status as a tool error carrying the status and a bounded excerpt of what the upstream said.
 */
import type { ContentBlock, ContentResult, StructuredResult, ToolErrorResult } from '../api.js';
import type { HttpBinding } from './upstream.js';

/** Characters of an upstream answer quoted in a tool error. */
const EXCERPT_CHARS = 1000;

/** What a proxied tool returns; the generated `proxy.ts` gives it the tool's own result type. */
export type ProxyResult = StructuredResult<unknown> | ContentResult | ToolErrorResult;

export function toolError(text: string): ProxyResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** The body's bytes, or undefined past `limit` (the rest is not read). */
export async function readBounded(
  response: Response,
  limit: number,
): Promise<Uint8Array | undefined> {
  if (response.body === null) return new Uint8Array(0);
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await response.body.cancel();
    return undefined;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

function mediaType(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

const isJson = (type: string): boolean => type === 'application/json' || type.endsWith('+json');
const isText = (type: string): boolean =>
  type.startsWith('text/') ||
  type.endsWith('+xml') ||
  type === 'application/xml' ||
  type === 'application/javascript' ||
  type === 'application/x-www-form-urlencoded';

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The first characters of a body, on one line, for an error message. */
function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS
    ? `${flat.slice(0, EXCERPT_CHARS)}… (${flat.length - EXCERPT_CHARS} more characters)`
    : flat;
}

/** A 2xx answer that is not JSON, as the content block its media type calls for. */
function contentOf(url: URL, type: string, bytes: Uint8Array): ContentBlock {
  if (type === '' || isText(type) || isJson(type))
    return { type: 'text', text: new TextDecoder().decode(bytes) };
  if (type.startsWith('image/')) return { type: 'image', data: base64(bytes), mimeType: type };
  if (type.startsWith('audio/')) return { type: 'audio', data: base64(bytes), mimeType: type };
  return { type: 'resource', resource: { uri: url.href, mimeType: type, blob: base64(bytes) } };
}

export function resultOf(
  binding: HttpBinding,
  url: URL,
  response: Response,
  bytes: Uint8Array,
  credentialsHint: string | undefined,
): ProxyResult {
  const type = mediaType(response);
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if (response.status < 200 || response.status > 299) {
    const said = excerpt(new TextDecoder().decode(bytes));
    const hint =
      (response.status === 401 || response.status === 403) && credentialsHint !== undefined
        ? ` (${credentialsHint})`
        : '';
    return toolError(
      `upstream answered ${status} to ${binding.method} ${url.pathname}${hint}${said === '' ? '' : `: ${said}`}`,
    );
  }
  if (bytes.length === 0 || binding.method === 'HEAD') {
    return { content: [{ type: 'text', text: `upstream answered ${status}` }] };
  }
  if (isJson(type) && binding.structured) {
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return toolError(
        `upstream answered ${status} with invalid JSON: ${excerpt(new TextDecoder().decode(bytes))}`,
      );
    }
    return {
      structuredContent: binding.wrapOutput === undefined ? value : { [binding.wrapOutput]: value },
    };
  }
  return { content: [contentOf(url, type, bytes)] };
}
