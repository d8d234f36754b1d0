/**
 * A tool's body argument → the upstream request's body, by the binding's media type: JSON, a
 * form, multipart (file parts arrive as base64 text and leave as bytes), base64 text decoded to
 * bytes (`encoding: base64`), or text as it is. Web-standard globals only (FormData, Blob, atob),
 * so the proxy runs wherever the server does.
 */

/** One tool's `http.body` (manifest `tools[].http.body`, content type made explicit). */
export interface BodyBinding {
  argument: string;
  contentType: string;
  encoding?: 'base64';
  files?: readonly string[];
}

/** The body to send; `contentType` undefined when the body sets its own (multipart's boundary). */
export interface RequestBody {
  body: string | ArrayBuffer | FormData;
  contentType: string | undefined;
}

/** An argument the upstream request cannot be made of: the call fails with this message. */
export class BodyArgumentError extends Error {
  override name = 'BodyArgumentError';
}

export function requestBodyOf(
  binding: BodyBinding | undefined,
  args: Record<string, unknown>,
): RequestBody | undefined {
  if (binding === undefined || args[binding.argument] === undefined) return undefined;
  const value = args[binding.argument];
  const { contentType } = binding;
  if (binding.encoding === 'base64') {
    return { body: fromBase64(String(value), binding.argument), contentType };
  }
  if (contentType === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams();
    for (const [key, item] of members(value)) form.append(key, text(item));
    return { body: form.toString(), contentType };
  }
  if (contentType === 'multipart/form-data') {
    const files = new Set(binding.files ?? []);
    const form = new FormData();
    for (const [key, item] of members(value)) {
      if (files.has(key)) {
        // The part's file name is its field name: the argument carries bytes, not a file's name.
        form.append(key, new Blob([fromBase64(String(item), `${binding.argument}.${key}`)]), key);
      } else form.append(key, text(item));
    }
    return { body: form, contentType: undefined };
  }
  if (contentType === 'application/json' || contentType.endsWith('+json')) {
    return { body: JSON.stringify(value), contentType };
  }
  return { body: typeof value === 'string' ? value : JSON.stringify(value), contentType };
}

/** An object's members, a list member once per item (as forms repeat a field). */
function members(value: unknown): [string, unknown][] {
  const entries = typeof value === 'object' && value !== null ? Object.entries(value) : [];
  const out: [string, unknown][] = [];
  for (const [key, v] of entries)
    for (const item of Array.isArray(v) ? v : [v]) if (item !== undefined) out.push([key, item]);
  return out;
}

function text(item: unknown): string {
  return typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Standard or URL-safe base64, whitespace ignored; anything else is the caller's mistake. An
 * ArrayBuffer, not a Uint8Array: every TypeScript's DOM types take it as a body and a Blob part.
 */
function fromBase64(encoded: string, where: string): ArrayBuffer {
  const plain = encoded.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (!BASE64.test(plain) || plain.length % 4 === 1) {
    throw new BodyArgumentError(`argument ${where} is not base64 text`);
  }
  const binary = atob(plain);
  const buffer = new ArrayBuffer(binary.length);
  const bytes = new Uint8Array(buffer);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return buffer;
}
