/**
 * Hostile JSON-RPC traffic for the runtime fuzz tests, each case with what the server must answer:
 * how many responses with id null, and which ids must be answered how many times. The oracle in
 * fuzz.test.ts holds the server to exactly that, over stdio and over Streamable HTTP.
 */
import fc from 'fast-check';

export interface FuzzCase {
  kind: string;
  /** One stdio line / one HTTP body; bytes when it must carry invalid UTF-8. */
  body: string | Uint8Array;
  /** Responses with `"id": null` it must get (parse errors, invalid requests). */
  nulls: number;
  /** Ids it must get exactly one response for (each listed once per expected response). */
  answered: (string | number)[];
  /** A slow request: the HTTP driver lets it run while the next cases are sent. */
  slow?: boolean;
}

/** Hands out ids no other case of the same run uses. */
export class Ids {
  private next = 1;
  fresh(asString: boolean): string | number {
    const n = this.next++;
    return asString ? `id-${n}` : n;
  }
}

/** JSON text (not values: a "__proto__" key must stay a key) of hostile but well-formed JSON. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('null', 'true', 'false', '0', '-1', '1.5', '1e400', '-1e400', '9007199254740993', '1e-400', '123456789012345678901234567890'),
    fc.string({ maxLength: 20 }).map((s) => JSON.stringify(s)),
    fc.constantFrom('"\\ud800"', '"\\udfff\\ud800"', '"\\u0000"', '"\\u2028"', '"\u202e"'),
    fc.constantFrom(100_000, 1_000_000).map((n) => JSON.stringify('x'.repeat(n))),
    fc.array(tie('value'), { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`),
    fc
      .array(fc.tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'location', 'text'), fc.string({ maxLength: 8 })), tie('value')), { maxLength: 4 })
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).value;

const methods = fc.oneof(
  fc.constantFrom(
    'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/read', 'resources/templates/list', 'prompts/list',
    'prompts/get', 'completion/complete', 'logging/setLevel', 'resources/subscribe', 'initialize', '__proto__', 'constructor',
    'toString', 'hasOwnProperty', 'notifications/cancelled',
  ),
  fc.string({ maxLength: 30 }),
  fc.constant('m'.repeat(1 << 20)),
);
const toolNames = fc.oneof(fc.constantFrom('echo', 'get_weather', 'fail', 'ask_name', 'list_roots', 'aborted_count', '__proto__', 'constructor'), fc.string({ maxLength: 12 }));

function request(id: string | number, method: string, paramsText: string | undefined): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":${JSON.stringify(method)}${paramsText === undefined ? '' : `,"params":${paramsText}`}}`;
}

/** Generates one case; `ids` makes the ids unique within a run. */
export function fuzzCase(ids: Ids): fc.Arbitrary<FuzzCase> {
  const fresh = fc.boolean().map((asString) => ids.fresh(asString));
  return fc.oneof(
    // Not JSON: a NUL byte never starts a JSON text; the rest is arbitrary bytes, invalid UTF-8 included.
    fc.uint8Array({ maxLength: 40 }).map((bytes): FuzzCase => ({
      kind: 'bytes',
      body: Uint8Array.from([0, ...bytes.filter((b) => b !== 0x0a)]),
      nulls: 1,
      answered: [],
    })),
    // A valid request cut short: never JSON. Its parse error carries the id once the id and the
    // start of the method's string are both in (json-scan.ts), and null before.
    fc.tuple(fresh, fc.string({ maxLength: 30 }), fc.nat()).map(([id, text, cut]): FuzzCase => {
      const whole = request(id, 'tools/call', JSON.stringify({ name: 'echo', arguments: { text } }));
      const body = whole.slice(0, 1 + (cut % (whole.length - 1)));
      const readable = body.length >= whole.indexOf('"method":"') + '"method":"'.length;
      return { kind: 'truncated', body, nulls: readable ? 0 : 1, answered: readable ? [id] : [] };
    }),
    // Ids that are not ids.
    fc.constantFrom('null', 'true', '1.5', '{}', '[]', '1e400', '9007199254740993', '-9007199254740993', '"a"', '').chain((idText) =>
      fc.constantFrom<FuzzCase>(
        idText === '"a"' || idText === ''
          ? // "jsonrpc" missing: refused, with the id when it is a valid one.
            { kind: 'no-jsonrpc', body: `{${idText === '' ? '' : `"id":${idText},`}"method":"ping"}`, nulls: idText === '' ? 1 : 0, answered: idText === '' ? [] : ['a'] }
          : { kind: 'bad-id', body: `{"jsonrpc":"2.0","id":${idText},"method":"ping"}`, nulls: 1, answered: [] },
      ),
    ),
    // JSON that is not a JSON-RPC message.
    fc.constantFrom('42', '"text"', 'null', 'true', '{}', '{"jsonrpc":"2.0"}', '{"jsonrpc":"2.0","method":7,"id":null}').map((body): FuzzCase => ({ kind: 'not-rpc', body, nulls: 1, answered: [] })),
    // Requests with hostile params: each must be answered once, whatever it is.
    fc.tuple(fresh, methods, fc.option(jsonText, { nil: undefined })).map(([id, method, params]): FuzzCase => ({
      kind: 'request',
      body: request(id, method, params),
      nulls: 0,
      answered: [id],
    })),
    fc.tuple(fresh, toolNames, jsonText).map(([id, name, args]): FuzzCase => ({
      kind: 'tools/call',
      body: request(id, 'tools/call', `{"name":${JSON.stringify(name)},"arguments":${args}}`),
      nulls: 0,
      answered: [id],
    })),
    // Nesting beyond the default maxDepth (64): refused before parsing, under the id read ahead of it.
    fc.tuple(fresh, fc.integer({ min: 70, max: 200_000 })).map(([id, depth]): FuzzCase => ({
      kind: 'deep',
      body: request(id, 'tools/call', `{"name":"echo","arguments":{"text":"x","deep":${'['.repeat(depth)}${']'.repeat(depth)}}}`),
      nulls: 0,
      answered: [id],
    })),
    // Notifications and responses to requests never sent: no answer at all.
    fc.tuple(methods, fc.option(jsonText, { nil: undefined })).map(([method, params]): FuzzCase => ({
      kind: 'notification',
      body: `{"jsonrpc":"2.0","method":${JSON.stringify(method)}${params === undefined ? '' : `,"params":${params}`}}`,
      nulls: 0,
      answered: [],
    })),
    fc.tuple(fc.oneof(fc.integer(), fc.string({ maxLength: 10 })), jsonText, fc.boolean()).map(([id, value, isError]): FuzzCase => ({
      kind: 'response',
      body: isError
        ? `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":{"code":-1,"message":"m","data":${value}}}`
        : `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${value}}`,
      nulls: 0,
      answered: [],
    })),
    // Ids no request of the run has (they are positive or "id-…").
    fc.oneof(fc.integer({ min: -2e9, max: -1 }), fc.string({ maxLength: 10 }).map((s) => `unknown-${s}`), fc.constantFrom<unknown>(null, 1.5, {}, [])).map((requestId): FuzzCase => ({
      kind: 'cancel-unknown',
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: requestId === undefined ? null : requestId, reason: 'x' } }),
      nulls: 0,
      answered: [],
    })),
    // Batches outside revision 2025-03-26: one -32600, none of the entries answered.
    fc.array(fresh, { maxLength: 3 }).map((batchIds): FuzzCase => ({
      kind: 'batch',
      body: `[${batchIds.map((id) => request(id, 'ping', undefined)).join(',')}]`,
      nulls: 1,
      answered: [],
    })),
    // A slow request, then another with the same id while it runs: both answered (the second refused).
    fresh.map((id): FuzzCase => ({
      kind: 'slow',
      body: request(id, 'tools/call', '{"name":"slow","arguments":{"steps":2,"ms":15}}'),
      nulls: 0,
      answered: [id],
      slow: true,
    })),
  );
}

/** A slow request followed by a request reusing its id while it runs. */
export function duplicatePair(ids: Ids): fc.Arbitrary<FuzzCase[]> {
  return fc.boolean().map((asString) => {
    const id = ids.fresh(asString);
    return [
      { kind: 'slow', body: request(id, 'tools/call', '{"name":"slow","arguments":{"steps":2,"ms":20}}'), nulls: 0, answered: [id], slow: true },
      { kind: 'duplicate', body: request(id, 'ping', undefined), nulls: 0, answered: [id] },
    ];
  });
}
