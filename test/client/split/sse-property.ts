/**
 * The client's SSE parser (src/runtime/client/sse-parser.ts, under both wires, Streamable HTTP and
 * legacy HTTP+SSE alike) against a model of the WHATWG event-stream rules: a random stream of
 * fields, comments, `retry:` and blank lines, written with random CR, LF and CRLF line ends and
 * maybe a BOM, must give the model's events and retries, whatever chunks its bytes arrive in.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { SseParser } from '../../../src/runtime/client/sse-parser.js';
import { awkwardText, BOM, bytewise, cut, cutPositions, utf8 } from './chunks.js';

type Line =
  | { kind: 'field'; field: 'data' | 'event' | 'id' | 'retry' | 'other'; name: string; value: string; space: boolean }
  | { kind: 'bare'; name: string }
  | { kind: 'comment'; text: string };

/** One event's lines; the last block of a stream may lack its blank line (then it is never dispatched). */
interface Block {
  lines: Line[];
  ending: string[];
}

export type Seen = { event: string; data: string; id: string | undefined } | { retry: number };

const ending = fc.constantFrom('\n', '\r', '\r\n');

const fieldLine: fc.Arbitrary<Line> = fc
  .record({
    field: fc.constantFrom('data', 'data', 'data', 'event', 'id', 'retry', 'other'),
    other: fc.constantFrom('foo', 'Data', 'ID', 'retry ', 'x y', 'événement'),
    value: fc.oneof(awkwardText(12), fc.stringMatching(/^[0-9]{1,6}$/), fc.constantFrom('', ' ', '  two', ' 12')),
    space: fc.boolean(),
  })
  .map(({ field, other, value, space }) => ({ kind: 'field', field, name: field === 'other' ? other : field, value, space }) as Line);

const line: fc.Arbitrary<Line> = fc.oneof(
  { weight: 6, arbitrary: fieldLine },
  { weight: 1, arbitrary: fc.constantFrom('data', 'event', 'id', 'retry', 'foo').map((name) => ({ kind: 'bare', name }) as Line) },
  { weight: 1, arbitrary: awkwardText(8).map((text) => ({ kind: 'comment', text }) as Line) },
);

const block: fc.Arbitrary<Block> = fc
  .array(fc.tuple(line, ending), { minLength: 1, maxLength: 5 })
  .chain((pairs) => ending.map((blank) => ({ lines: pairs.map(([l]) => l), ending: [...pairs.map(([, e]) => e), blank] })));

/** A stream: blocks, whether the last one is closed by its blank line, a leading BOM or not. */
export const sseStream = fc.record({
  blocks: fc.array(block, { minLength: 1, maxLength: 6 }),
  closed: fc.boolean(),
  bom: fc.boolean(),
});
export type SseStream = typeof sseStream extends fc.Arbitrary<infer T> ? T : never;

function lineText(l: Line): string {
  if (l.kind === 'comment') return ':' + l.text;
  if (l.kind === 'bare') return l.name;
  return `${l.name}:${l.space ? ' ' : ''}${l.value}`;
}

/** The stream's bytes. A CR line end followed by an empty line ended by LF would read as one CRLF: it gets CRLF. */
export function sseBytes(stream: SseStream): Uint8Array {
  let text = stream.bom ? BOM : '';
  let previous = '';
  stream.blocks.forEach((b, i) => {
    const last = i === stream.blocks.length - 1;
    const lines = [...b.lines.map(lineText), ...(last && !stream.closed ? [] : [''])];
    lines.forEach((t, j) => {
      let end = b.ending[j] as string;
      if (t === '' && previous === '\r' && end === '\n') end = '\r\n';
      text += t + end;
      previous = end;
    });
  });
  return utf8(text);
}

/** What the standard makes of the stream, worked out from its lines, not its bytes. */
export function sseModel(stream: SseStream): Seen[] {
  const seen: Seen[] = [];
  let data: string[] = [];
  let type = '';
  let lastId = '';
  stream.blocks.forEach((b, i) => {
    for (const l of b.lines) {
      if (l.kind === 'comment') continue;
      const name = l.name;
      const value = l.kind === 'bare' ? '' : l.space ? l.value : l.value.startsWith(' ') ? l.value.slice(1) : l.value;
      if (name === 'data') data.push(value);
      else if (name === 'event') type = value;
      else if (name === 'id' && !value.includes('\0')) lastId = value;
      else if (name === 'retry' && /^[0-9]+$/.test(value)) seen.push({ retry: Number(value) });
    }
    if (i === stream.blocks.length - 1 && !stream.closed) return;
    if (data.length > 0) seen.push({ event: type === '' ? 'message' : type, data: data.join('\n'), id: lastId === '' ? undefined : lastId });
    data = [];
    type = '';
  });
  return seen;
}

export function parse(chunks: readonly Uint8Array[]): Seen[] {
  const seen: Seen[] = [];
  const parser = new SseParser(
    (event) => seen.push({ ...event }),
    (retry) => seen.push({ retry }),
  );
  for (const chunk of chunks) parser.push(chunk);
  return seen;
}

/** The property: the model's events for the whole body, for 1-byte chunks, and for random cuts. */
export function sseSplitInvariance(numRuns: number, seed?: number): void {
  fc.assert(
    fc.property(sseStream, cutPositions, (stream, positions) => {
      const bytes = sseBytes(stream);
      const expected = sseModel(stream);
      expect(parse([bytes])).toEqual(expected);
      expect(parse(bytewise(bytes))).toEqual(expected);
      expect(parse(cut(bytes, positions))).toEqual(expected);
    }),
    { numRuns, ...(seed === undefined ? {} : { seed }) },
  );
}
