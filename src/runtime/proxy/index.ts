/**
 * Proxied tools (manifest `http` bindings): copied into a generated server only when its manifest
 * has some. The generated `proxy.ts` builds one `Upstream` from `upstream` and calls it per tool.
 */
export { createUpstream } from './upstream.js';
export type { HttpBinding, Upstream, UpstreamOptions, UpstreamSettings } from './upstream.js';
export type { ProxyResult } from './answer.js';
export type { Environment, UpstreamAuth } from './credentials.js';
export type { HttpParameter } from './serialize.js';
