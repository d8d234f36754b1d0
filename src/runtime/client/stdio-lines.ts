/// <reference types="node" />
/**
 * The server's stdout cut into lines, whatever chunks its bytes arrive in: UTF-8 decoded as it
 * streams (a character split between chunks is decoded once whole; a leading BOM is dropped, so
 * the first message is not lost to it), lines ended by LF (a CR before it is left to JSON.parse,
 * which reads it as whitespace). The pieces of a long line are joined once, when its LF arrives.
 */
export class StdioLines {
  private readonly onLine: (line: string) => void;
  private readonly decoder = new TextDecoder();
  /** Pieces of the line whose LF has not arrived yet. */
  private pending: string[] = [];

  constructor(onLine: (line: string) => void) {
    this.onLine = onLine;
  }

  push(bytes: Uint8Array): void {
    this.text(this.decoder.decode(bytes, { stream: true }));
  }

  /** The output ended: a last line without its LF still counts. */
  end(): void {
    this.text(this.decoder.decode());
    if (this.pending.length > 0) this.onLine(this.take(''));
  }

  private text(chunk: string): void {
    let start = 0;
    let newline = chunk.indexOf('\n');
    while (newline !== -1) {
      this.onLine(this.take(chunk.slice(start, newline)));
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    if (start < chunk.length) this.pending.push(chunk.slice(start));
  }

  private take(tail: string): string {
    if (this.pending.length === 0) return tail;
    this.pending.push(tail);
    const line = this.pending.join('');
    this.pending = [];
    return line;
  }
}
