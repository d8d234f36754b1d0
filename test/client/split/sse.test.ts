/**
 * The client's SSE parser gives the same events for every chunking of the same bytes (issue 38
 * item 5, issue 39 item 4): the cases the issue names, then the property against the standard's
 * model (sse-property.ts) with a quick run; split.slow.test.ts runs it longer.
 */
import { describe, expect, it } from 'vitest';
import { bytewise, utf8 } from './chunks.js';
import { parse, sseSplitInvariance } from './sse-property.js';

const message = '{"jsonrpc":"2.0","id":1,"result":{}}';

describe('SSE parser', () => {
  it('a chunk ending between CR and LF: one event, with its id', () => {
    expect(parse([utf8('id: 5\r'), utf8(`\ndata: ${message}\r\n\r\n`)])).toEqual([{ event: 'message', data: message, id: '5' }]);
  });

  it('keeps the last event id across events, as the standard does', () => {
    const text = `id: 7\ndata: a\n\ndata: b\n\nid:\ndata: c\n\n`;
    const expected = [
      { event: 'message', data: 'a', id: '7' },
      { event: 'message', data: 'b', id: '7' },
      { event: 'message', data: 'c', id: undefined },
    ];
    expect(parse([utf8(text)])).toEqual(expected);
    expect(parse(bytewise(utf8(text)))).toEqual(expected);
  });

  it('an event without data is not dispatched, but its id stays for the next one', () => {
    expect(parse([utf8('id: 3\nevent: x\n\ndata: y\n\n')])).toEqual([{ event: 'message', data: 'y', id: '3' }]);
  });

  it('drops one leading BOM, split over chunks too, and decodes characters split between chunks', () => {
    const bytes = utf8('\uFEFFdata: é€中😀\n\n');
    expect(parse(bytewise(bytes))).toEqual([{ event: 'message', data: 'é€中😀', id: undefined }]);
    expect(parse([utf8('\uFEFF\uFEFFdata: x\n\n')])).toEqual([]);
  });

  it('comments, retry, a field without a colon, one leading space stripped', () => {
    const text = ': hi\rretry: 1500\rretry: 1x\rdata\rdata:  two\revent:up\r\r';
    expect(parse(bytewise(utf8(text)))).toEqual([{ retry: 1500 }, { event: 'up', data: '\n two', id: undefined }]);
  });

  it('every chunking gives the events of the standard (quick property)', () => {
    sseSplitInvariance(150);
  });
});
