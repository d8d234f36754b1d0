#!/usr/bin/env node
// Whether each parser that reads the wire stays linear in its input (issue 39 item 4): the client's
// SSE parser (both wires, Streamable HTTP and legacy HTTP+SSE), the client's stdio line reader, the
// server's stdio reader (`serveStdio`, pings answered) and the server's POST body collector. Each is
// fed the same bytes at 1x, 10x and 100x a base size, whole and in 1 KiB and 1-byte chunks, and timed
// per byte beside a floor run in the same round on the same chunks: a streaming TextDecoder and an
// indexOf scan for LF, the least any of them must do. The ratio to the floor is what the parser
// costs beyond reading; linear means that ratio stays flat from 1x to 100x (the floor itself is
// linear by construction, and takes the machine's own effects of a large input: caches, GC). Also timed: the SSE
// parser this replaced (kept below as `OldSseParser`), whose long line was searched again from its
// start at every chunk.
//
//   npm run -s build && node bench/wire-parsers.mjs [--base 16384] [--rounds 5]
import { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({ options: { base: { type: 'string', default: '16384' }, rounds: { type: 'string', default: '5' } } });
const BASE = Number(flags.base);
const ROUNDS = Number(flags.rounds);

const { SseParser } = await import('../dist/runtime/client/sse-parser.js');
const { StdioLines } = await import('../dist/runtime/client/stdio-lines.js');
const { BodyCollector } = await import('../dist/runtime/transports/http/http-body.js');
const { createServer } = await import('../dist/runtime/index.js');

/** The SSE parser before issue 38 (its algorithm as it was), behind a streaming decoder as node:http gave it text. */
class OldSseParser {
  buffer = '';
  decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  constructor(onEvent) {
    this.onEvent = onEvent;
  }
  push(bytes) {
    this.buffer += this.decoder.decode(bytes, { stream: true });
    let newline = this.buffer.search(/\r\n|\r|\n/);
    while (newline !== -1) {
      const crlf = this.buffer.startsWith('\r\n', newline);
      if (this.buffer.slice(0, newline) === '') this.onEvent();
      this.buffer = this.buffer.slice(newline + (crlf ? 2 : 1));
      newline = this.buffer.search(/\r\n|\r|\n/);
    }
  }
}

const encoder = new TextEncoder();
/** ~`size` bytes of SSE: one long `data:` line (a JSON string with multi-byte text), or events of ~100 bytes with CRLF. */
function sseBytes(size, shape) {
  if (shape === 'long line') return encoder.encode(`id: 1\r\ndata: {"text":"${'aé€😀'.repeat(Math.ceil(size / 10))}"}\r\n\r\n`);
  const event = `id: 7\r\nevent: message\r\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"p":"é€"}}\r\n\r\n`;
  return encoder.encode(event.repeat(Math.ceil(size / event.length)));
}
function stdioBytes(size) {
  let text = '';
  for (let i = 0; text.length < size; i++) text += `{"jsonrpc":"2.0","id":${i},"method":"ping","params":{"_meta":{"n":"é€"}}}\n`;
  return encoder.encode(text);
}

function chunked(bytes, size) {
  if (size >= bytes.length) return [bytes];
  const chunks = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}

/** The floor: decode every chunk as a stream and find every LF. */
function floor(chunks) {
  const decoder = new TextDecoder();
  let lines = 0;
  for (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  }
  return lines;
}

const parsers = {
  'SSE (client)': (chunks) => {
    let n = 0;
    const parser = new SseParser(() => n++, () => {});
    for (const chunk of chunks) parser.push(chunk);
    return n;
  },
  'SSE, before': (chunks) => {
    let n = 0;
    const parser = new OldSseParser(() => n++);
    for (const chunk of chunks) parser.push(chunk);
    return n;
  },
  'stdio lines (client)': (chunks) => {
    let n = 0;
    const lines = new StdioLines(() => n++);
    for (const chunk of chunks) lines.push(chunk);
    lines.end();
    return n;
  },
  'POST body (server)': (chunks) => {
    let length = 0;
    const total = chunks.reduce((sum, c) => sum + c.length, 0);
    const body = new BodyCollector(total, (kept, size) => Buffer.concat(kept, size).toString('utf8'), (text) => (length = text.length), () => {});
    for (const chunk of chunks) body.push(chunk);
    body.end();
    return length;
  },
};

const definition = { serverInfo: { name: 'bench', version: '1' }, protocolVersions: ['2025-11-25'], capabilities: {}, tools: [], toolBindings: {}, resources: [], resourceTemplates: [], prompts: [], requestValidators: {} };
const INIT = encoder.encode('{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}\n');
/** The server's stdin reader, with what it answers (pings): the whole of serveStdio. */
async function stdioServer(chunks) {
  let answers = 0;
  const output = new Writable({ write(chunk, _e, done) { answers += chunk.length; done(); } });
  await createServer(definition, {}, { logger: () => {} }).serveStdio({ input: Readable.from([INIT, ...chunks], { objectMode: false }), output });
  return answers;
}

/** The fastest of the rounds: on a shared machine the other processes only ever add time. */
const best = (values) => Math.min(...values);

function time(fn) {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start);
}
async function timeAsync(fn) {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start);
}

const SCALES = [1, 10, 100];
const CHUNKS = [['whole', Infinity], ['1 KiB', 1024], ['1 byte', 1]];
const rows = [];
for (const [name, parse] of Object.entries(parsers)) {
  const shapes = name.startsWith('SSE') ? ['long line', 'events'] : ['lines'];
  for (const shape of shapes) {
    // Warm-up: the first runs of a function are interpreted; neither side is timed cold.
    for (let i = 0; i < 3; i++) {
      const warm = chunked(name.startsWith('SSE') ? sseBytes(BASE, shape) : stdioBytes(BASE), 64);
      floor(warm);
      parse(warm);
    }
    for (const [chunkName, chunkSize] of CHUNKS) {
      for (const scale of SCALES) {
        const bytes = name.startsWith('SSE') ? sseBytes(BASE * scale, shape) : stdioBytes(BASE * scale);
        // The old parser's long line in small chunks is quadratic: 1-byte chunks past 1x, 1 KiB past
        // 10x would take minutes (that is the point).
        if (name === 'SSE, before' && shape === 'long line' && ((chunkSize === 1 && scale > 1) || (chunkSize === 1024 && scale > 10))) continue;
        const chunks = chunked(bytes, chunkSize);
        const ours = [];
        const base = [];
        for (let r = 0; r < ROUNDS; r++) {
          base.push(time(() => floor(chunks)));
          ours.push(time(() => parse(chunks)));
        }
        rows.push({ parser: name, shape, chunks: chunkName, scale, bytes: bytes.length, ns: best(ours) / bytes.length, floor: best(base) / bytes.length });
        process.stderr.write(`${name}, ${shape}, ${chunkName}, ${scale}x: ${(best(ours) / bytes.length).toFixed(1)} ns/byte\n`);
      }
    }
  }
}
await stdioServer(chunked(stdioBytes(BASE), 64));
for (const [chunkName, chunkSize] of CHUNKS) {
  for (const scale of SCALES) {
    const bytes = stdioBytes(BASE * scale);
    const chunks = chunked(bytes, chunkSize);
    const ours = [];
    const base = [];
    for (let r = 0; r < Math.min(ROUNDS, 3); r++) {
      base.push(time(() => floor(chunks)));
      ours.push(await timeAsync(() => stdioServer(chunks)));
    }
    rows.push({ parser: 'stdio (server, pings answered)', shape: 'lines', chunks: chunkName, scale, bytes: bytes.length, ns: best(ours) / bytes.length, floor: best(base) / bytes.length });
  }
}

console.log(`base ${BASE} bytes, ${ROUNDS} rounds, best round; ns per byte (× the floor run beside it); growth = the × at 100x ÷ the × at 1x (1.0: linear)`);
console.log('| parser | input | chunks | 1x | 10x | 100x | growth 1x→100x |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
const key = (r) => `${r.parser}|${r.shape}|${r.chunks}`;
for (const k of [...new Set(rows.map(key))]) {
  const group = rows.filter((r) => key(r) === k);
  const cell = (scale) => {
    const r = group.find((g) => g.scale === scale);
    return r === undefined ? 'skipped' : `${r.ns.toFixed(1)} (${(r.ns / r.floor).toFixed(1)}×)`;
  };
  const first = group.find((g) => g.scale === 1);
  const last = group.find((g) => g.scale === 100) ?? group.find((g) => g.scale === 10);
  // Against the floor, so what the machine does to a 1.6 MB input (caches, GC) counts on both sides.
  const growth = first && last && last !== first ? `${(last.ns / last.floor / (first.ns / first.floor)).toFixed(2)}${last.scale === 10 ? ' (1x→10x)' : ''}` : '';
  const [parser, shape, chunks] = k.split('|');
  console.log(`| ${parser} | ${shape} | ${chunks} | ${cell(1)} | ${cell(10)} | ${cell(100)} | ${growth} |`);
}
