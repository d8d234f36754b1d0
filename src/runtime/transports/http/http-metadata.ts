/// <reference types="node" />
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TRANSPORT_ERROR, quote } from '../../protocol/jsonrpc.js';
import { sendError } from './http-reply.js';

/** The Protected Resource Metadata: public, so any origin may read it (browser-based clients discover with it). */
export function serveMetadata(req: IncomingMessage, res: ServerResponse, metadata: string): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    sendError(res, 405, TRANSPORT_ERROR, `Method Not Allowed: ${quote(req.method ?? '')}`);
    return;
  }
  res.writeHead(200, {
    'content-type': 'application/json',
    'access-control-allow-origin': '*',
    'cache-control': 'max-age=3600',
  });
  res.end(req.method === 'HEAD' ? undefined : metadata);
}
