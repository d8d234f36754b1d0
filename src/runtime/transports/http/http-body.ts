/**
 * The size limit of a POST body, whatever delivers its chunks (node:http's stream in
 * http-node.ts, a Web `ReadableStream` in web.ts). A body over the limit is refused, but not
 * blindly: its first `maxBytes` are kept (never more), so the refusal can carry the request's id
 * when that can be read from them (json-scan.ts), and the rest is read and dropped, up to as much
 * again, so that a client still sending gets the answer rather than a reset connection.
 */
import { NULL_ID } from '../../protocol/jsonrpc.js';
import { scanRequestId } from '../../protocol/json-scan.js';
import type { HttpRequestIn } from './http-exchange.js';

/** Turns the kept chunks (`size` bytes in all) into text; each platform has its fastest way. */
export type DecodeBody = (chunks: readonly Uint8Array[], size: number) => string;

/**
 * How an adapter reads a request's body: `done` with the body as text, or `tooLarge` with the id
 * (JSON text, `null` when it could not be read) of a body larger than `maxBytes`.
 */
export type ReadBody<Req extends HttpRequestIn> = (
  req: Req,
  maxBytes: number,
  done: (body: string) => void,
  tooLarge: (idText: string) => void,
) => void;

/** Collects a body's chunks under the limit; the adapter pushes each chunk, then calls `end`. */
export class BodyCollector {
  private readonly maxBytes: number;
  private readonly decode: DecodeBody;
  private readonly done: (body: string) => void;
  private readonly tooLarge: (idText: string) => void;
  private readonly chunks: Uint8Array[] = [];
  private size = 0;
  private kept = 0;
  /** The body was refused: nothing more is kept, and `end` does nothing. */
  refused = false;

  constructor(
    maxBytes: number,
    decode: DecodeBody,
    done: (body: string) => void,
    tooLarge: (idText: string) => void,
  ) {
    this.maxBytes = maxBytes;
    this.decode = decode;
    this.done = done;
    this.tooLarge = tooLarge;
  }

  push(chunk: Uint8Array): void {
    if (this.refused) return;
    this.size += chunk.length;
    if (this.kept < this.maxBytes) {
      const room = this.maxBytes - this.kept;
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.chunks.push(part);
      this.kept += part.length;
    }
    // Past twice the limit the client is not worth waiting for: answer now, close the connection.
    if (this.size > 2 * this.maxBytes) this.refuse();
  }

  end(): void {
    if (this.refused) return;
    if (this.size > this.maxBytes) {
      this.refuse();
      return;
    }
    this.done(this.decode(this.chunks, this.size));
  }

  private refuse(): void {
    if (this.refused) return;
    this.refused = true;
    const head = this.decode(this.chunks, this.kept);
    this.chunks.length = 0;
    this.tooLarge(scanRequestId(head, this.maxBytes) ?? NULL_ID);
  }
}
