/**
 * Reads a `text/event-stream` body the way the WHATWG HTML standard interprets an event stream,
 * whatever the chunks its bytes arrive in: UTF-8 decoded as it streams (a character split between
 * chunks is decoded once whole; one leading BOM is dropped), lines ended by CR, LF or CRLF (a CRLF
 * split between chunks is one line end), comments, `retry:`, a field without a colon, one leading
 * space of a value stripped. The last event id is kept across events, as the standard keeps it:
 * an event without an `id:` line carries the id of the one before. Each byte is looked at a
 * bounded number of times, so a long line arriving in many chunks costs time linear in its length.
 * A line or an event's data over `maxChars` is not kept: `tooLarge` is set and nothing more is read.
 * Used by both client wires (node-wire.ts, fetch-wire.ts), for Streamable HTTP and legacy HTTP+SSE.
 */

export interface SseEvent {
  event: string;
  data: string;
  /** The last event id the stream set, on this event or an earlier one (undefined: none, or reset by an empty `id:`). */
  id: string | undefined;
}

const CR = '\r';
const LF = '\n';

export class SseParser {
  private readonly onEvent: (event: SseEvent) => void;
  private readonly onRetry: (ms: number) => void;
  /** Streaming UTF-8 decoding; by default it drops one BOM at the start of the stream. */
  private readonly decoder = new TextDecoder();
  /** Pieces of the line whose end has not arrived yet, joined once when it does. */
  private pending: string[] = [];
  /** The text so far ended with a CR: a LF that starts the next text ends no second line. */
  private afterCr = false;
  /** The `data:` values of the event being read (the standard's data buffer, one entry per line). */
  private data: string[] = [];
  /** The event type buffer. */
  private type = '';
  /** The last event id buffer: not cleared when an event is dispatched. */
  private lastEventId = '';
  private readonly maxChars: number;
  /** Characters in `pending`, and in `data` (with the line breaks that will join it). */
  private pendingChars = 0;
  private dataChars = 0;
  /** A line or an event went over `maxChars`: nothing more is read. */
  tooLarge = false;

  constructor(
    onEvent: (event: SseEvent) => void,
    onRetry: (ms: number) => void,
    maxChars = Number.POSITIVE_INFINITY,
  ) {
    this.onEvent = onEvent;
    this.onRetry = onRetry;
    this.maxChars = maxChars;
  }

  /** The next bytes of the body. */
  push(bytes: Uint8Array): void {
    if (this.tooLarge) return;
    const text = this.decoder.decode(bytes, { stream: true });
    if (text !== '') this.text(text);
  }

  /** Splits decoded text into lines; each search starts where the previous one stopped. */
  private text(chunk: string): void {
    let start = 0;
    if (this.afterCr) {
      this.afterCr = false;
      if (chunk.startsWith(LF)) start = 1;
    }
    let cr = chunk.indexOf(CR, start);
    let lf = chunk.indexOf(LF, start);
    while (cr !== -1 || lf !== -1) {
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (this.pendingChars + end - start > this.maxChars) return this.stop();
      this.line(this.take(chunk, start, end));
      if (this.tooLarge) return;
      start = end + 1;
      if (end === cr) {
        if (start === chunk.length) this.afterCr = true;
        else if (lf === start) start++;
      }
      if (cr !== -1 && cr < start) cr = chunk.indexOf(CR, start);
      if (lf !== -1 && lf < start) lf = chunk.indexOf(LF, start);
    }
    if (start < chunk.length) {
      this.pendingChars += chunk.length - start;
      if (this.pendingChars > this.maxChars) return this.stop();
      this.pending.push(chunk.slice(start));
    }
  }

  private stop(): void {
    this.tooLarge = true;
    this.pending = [];
    this.data = [];
  }

  /** The line ending at `end` of `chunk`, with the pieces of it earlier chunks brought. */
  private take(chunk: string, start: number, end: number): string {
    const tail = chunk.slice(start, end);
    if (this.pending.length === 0) return tail;
    this.pending.push(tail);
    const line = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    return line;
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      // The lines are joined with LF: one more character from the second on.
      this.dataChars += this.data.length === 0 ? value.length : value.length + 1;
      if (this.dataChars > this.maxChars) return this.stop();
      this.data.push(value);
    } else if (field === 'event') this.type = value;
    else if (field === 'id') {
      if (!value.includes('\0')) this.lastEventId = value;
    } else if (field === 'retry' && /^[0-9]+$/.test(value)) this.onRetry(Number(value));
  }

  /** A blank line: the event read so far goes out, unless it has no data (then it is dropped). */
  private dispatch(): void {
    const data = this.data;
    const type = this.type;
    this.data = [];
    this.dataChars = 0;
    this.type = '';
    if (data.length === 0) return;
    this.onEvent({
      event: type === '' ? 'message' : type,
      data: data.join('\n'),
      id: this.lastEventId === '' ? undefined : this.lastEventId,
    });
  }
}
