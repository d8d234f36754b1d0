/// <reference types="node" />
/**
 * The server's stdout cut into lines, whatever chunks its bytes arrive in. Lines are cut on the LF
 * byte before any decoding (UTF-8 never uses that byte inside a character, so a character split
 * between chunks stays whole), and each line is decoded once, when its LF arrives: no streaming
 * decoder, no string pieces joined. A CR before the LF is left to JSON.parse, which reads it as
 * whitespace; a leading BOM is dropped, so the first message is not lost to it.
 */
export class StdioLines {
  private readonly onLine: (line: string) => void;
  /** Bytes of the line whose LF has not arrived yet. */
  private pending: Buffer[] = [];
  /** Until the first line is decoded: it may start with a BOM. */
  private first = true;

  constructor(onLine: (line: string) => void) {
    this.onLine = onLine;
  }

  push(bytes: Uint8Array): void {
    const chunk = Buffer.isBuffer(bytes)
      ? bytes
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let start = 0;
    let newline = chunk.indexOf(10);
    while (newline !== -1) {
      this.onLine(this.take(chunk.subarray(start, newline)));
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
  }

  /** The output ended: a last line without its LF still counts. */
  end(): void {
    if (this.pending.length > 0) this.onLine(this.take(Buffer.alloc(0)));
  }

  /** The line whose last bytes are `tail`, decoded. */
  private take(tail: Buffer): string {
    let line = tail;
    if (this.pending.length > 0) {
      this.pending.push(tail);
      line = Buffer.concat(this.pending);
      this.pending = [];
    }
    if (this.first) {
      this.first = false;
      if (line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) line = line.subarray(3);
    }
    return line.toString('utf8');
  }
}
