/// <reference types="node" />
/**
 * Reading a POST body under the size limit. A body over the limit is refused, but not blindly: its
 * first `maxBytes` are kept (never more), so the refusal can carry the request's id when that can be
 * read from them (json-scan.ts), and the rest is read and dropped, up to as much again, so that a
 * client still sending gets the answer rather than a reset connection.
 */
import { Buffer } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { NULL_ID } from '../../protocol/jsonrpc.js';
import { scanRequestId } from '../../protocol/json-scan.js';

/**
 * Calls `done` with the body as text, or `tooLarge` with the id (JSON text, `null` when it could not
 * be read) of a body larger than `maxBytes`.
 */
export function readBody(
  req: IncomingMessage,
  maxBytes: number,
  done: (body: string) => void,
  tooLarge: (idText: string) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let kept = 0;
  let refused = false;
  const refuse = (): void => {
    if (refused) return;
    refused = true;
    const head = Buffer.concat(chunks, kept).toString('utf8');
    chunks.length = 0;
    tooLarge(scanRequestId(head, maxBytes) ?? NULL_ID);
  };
  req.on('data', (chunk: Buffer) => {
    if (refused) return;
    size += chunk.length;
    if (kept < maxBytes) {
      const room = maxBytes - kept;
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      chunks.push(part);
      kept += part.length;
    }
    // Past twice the limit the client is not worth waiting for: answer now, close the connection.
    if (size > 2 * maxBytes) refuse();
  });
  req.on('end', () => {
    if (refused) return;
    if (size > maxBytes) {
      refuse();
      return;
    }
    // Most bodies arrive in one chunk: decoding it directly saves a copy of every large body.
    done(
      chunks.length === 1
        ? (chunks[0] as Buffer).toString('utf8')
        : Buffer.concat(chunks, size).toString('utf8'),
    );
  });
}
