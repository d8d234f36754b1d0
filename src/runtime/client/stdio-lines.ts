/// <reference types="node" />
/**
 * The server's stdout cut into lines, whatever chunks its bytes arrive in. Lines are cut on the LF
 * byte before any decoding (UTF-8 never uses that byte inside a character, so a character split
 * between chunks stays whole), and each line is decoded once, when its LF arrives: no streaming
 * decoder, no string pieces joined. A CR before the LF is left to JSON.parse, which reads it as
 * whitespace; a leading BOM is dropped, so the first message is not lost to it. A line over
 * `maxBytes` is not kept: `onTooLarge` is called once and nothing more is read.
 */
export class StdioLines {
  private readonly onLine: (line: string) => void;
  private readonly maxBytes: number;
  private readonly onTooLarge: () => void;
  /** Bytes of the line whose LF has not arrived yet. */
  private pending: Buffer[] = [];
  /** Their length. */
  private pendingBytes = 0;
  /** Until the first line is decoded: it may start with a BOM. */
  private first = true;
  /** A line went over `maxBytes`: nothing more is read. */
  private stopped = false;

  constructor(
    onLine: (line: string) => void,
    maxBytes = Number.POSITIVE_INFINITY,
    onTooLarge: () => void = () => {},
  ) {
    this.onLine = onLine;
    this.maxBytes = maxBytes;
    this.onTooLarge = onTooLarge;
  }

  push(bytes: Uint8Array): void {
    if (this.stopped) return;
    const chunk = Buffer.isBuffer(bytes)
      ? bytes
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let start = 0;
    let newline = chunk.indexOf(10);
    while (newline !== -1) {
      if (this.pendingBytes + newline - start > this.maxBytes) return this.stop();
      this.onLine(this.take(chunk.subarray(start, newline)));
      if (this.stopped) return;
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.maxBytes) return this.stop();
      this.pending.push(chunk.subarray(start));
    }
  }

  /** The output ended: a last line without its LF still counts. */
  end(): void {
    if (!this.stopped && this.pending.length > 0) this.onLine(this.take(Buffer.alloc(0)));
  }

  private stop(): void {
    this.stopped = true;
    this.pending = [];
    this.pendingBytes = 0;
    this.onTooLarge();
  }

  /** The line whose last bytes are `tail`, decoded. */
  private take(tail: Buffer): string {
    let line = tail;
    if (this.pending.length > 0) {
      this.pending.push(tail);
      line = Buffer.concat(this.pending);
      this.pending = [];
      this.pendingBytes = 0;
    }
    if (this.first) {
      this.first = false;
      if (line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) line = line.subarray(3);
    }
    return line.toString('utf8');
  }
}
