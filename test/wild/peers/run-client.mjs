// Runs the six cases of the wild suite with one real client over one transport, against the
// generated server of fixtures/manifest.yaml. Started by test/wild/clients.test.ts as
//   node run-client.mjs <client> <transport> '<target as JSON>' [revision]
// where the target is { command, args } (stdio) or { url } (http, sse; for sse also `endpoint`, the
// server's Streamable HTTP URL, for the bystander), and the revision one of
// the client's own `revisions` (its default when absent). Each case prints one line
// `WILD-CASE {"name", "ok", "detail"}`; the connection's revision prints `WILD-REVISION <v>`.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bystander } from './bystander.mjs';
import { httpTap } from './http-tap.mjs';

const [clientName, transport, targetJson, revision] = process.argv.slice(2);
const server = JSON.parse(targetJson);

// The client reaches the server through a tap that notes the revisions spoken (stdio-tap.mjs, http-tap.mjs).
const tapFile = join(mkdtempSync(join(tmpdir(), 'wild-tap-')), 'revisions');
const tap = server.url ? await httpTap(server.url) : undefined;
const target = tap ? { url: tap.url } : { command: process.execPath, args: [join(import.meta.dirname, 'stdio-tap.mjs'), tapFile, server.command, ...server.args] };
const spoken = () => [...new Set(tap ? tap.revisions : readFileSync(tapFile, 'utf8').split('\n').filter(Boolean))];
const client = (await import(`./clients/${clientName}.mjs`)).default;

const report = (name, ok, detail = '') => process.stdout.write(`WILD-CASE ${JSON.stringify({ name, ok, detail: String(detail).slice(0, 300) })}\n`);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const id = (what) => `${clientName}-${transport}-${what}-${process.pid}`;
const within = (ms, promise, what) =>
  Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms).unref())]);

/** The structured answer of a call, however the client passes it on: structuredContent, its JSON as text, or the object itself. */
function structured(result) {
  if (result?.structuredContent !== undefined) return result.structuredContent;
  const text = typeof result === 'string' ? result : Array.isArray(result?.content) ? result.content.find((c) => c.type === 'text')?.text : undefined;
  if (text !== undefined) return JSON.parse(text);
  if (Array.isArray(result)) return structured({ content: result });
  if (result !== null && typeof result === 'object') return result;
  throw new Error(`no structured answer in ${JSON.stringify(result)?.slice(0, 200)}`);
}

const sumOf = (result) => structured(result).sum;
const status = async (session, callId) => structured(await session.call('slow_status', { id: callId }));

/** Runs one case; a case that throws is a failure with the error as its detail. */
async function runCase(name, body) {
  try {
    const detail = await within(30_000, body(), name);
    if (detail === 'n/a' || (typeof detail === 'string' && detail.startsWith('n/a:'))) report(name, 'n/a', detail.replace(/^n\/a:?\s*/, ''));
    else report(name, true, detail ?? '');
  } catch (error) {
    report(name, false, error?.stack?.split('\n').slice(0, 3).join(' | ') ?? String(error));
  }
}

let session;
await runCase('lists tools', async () => {
  session = await client.connect(transport, target, revision);
  const names = await session.listTools();
  for (const tool of ['add', 'slow', 'slow_status']) if (!names.includes(tool)) throw new Error(`${tool} missing from ${names.join(', ')}`);
  return names.join(', ');
});

await runCase('typed call', async () => {
  const sum = sumOf(await session.call('add', { a: 2, b: 3 }));
  if (sum !== 5) throw new Error(`2 + 3 answered ${sum}`);
  return 'add → { sum: 5 }';
});

await runCase('invalid call', async () => {
  let result;
  try {
    result = await session.call('add', { a: 'two', b: 3 });
  } catch (error) {
    // A JSON-RPC error (or the client's own check before sending) names what is wrong.
    const message = String(error?.message ?? error);
    if (message.trim() === '') throw new Error('rejected with no message');
    return `rejected: ${message}`;
  }
  if (result?.isError === true) return `isError: ${result.content?.[0]?.text ?? ''}`;
  throw new Error(`the invalid call succeeded: ${JSON.stringify(result).slice(0, 200)}`);
});

await runCase('cancels', async () => {
  // `cancel` says why the client cannot cancel one call over this transport, or nothing.
  const cannot = client.cannotCancel?.(transport);
  if (cannot) return `n/a: ${cannot}`;
  const callId = id('cancel');
  // A client whose one way to give up on a call is its timeout cancels by timing out.
  const byTimeout = client.cancelsByTimeout === true;
  const controller = new AbortController();
  const call = session.call('slow', { id: callId, ms: 20_000 }, byTimeout ? { timeoutMs: 400 } : { signal: controller.signal });
  if (!byTimeout) {
    await pause(400);
    controller.abort();
  }
  const outcome = await within(5_000, call.then(() => 'answered', () => 'rejected'), 'the cancelled call');
  for (let i = 0; i < 30; i++) {
    const seen = await status(session, callId);
    if (seen.cancelled) return `call ${outcome}; the handler's signal aborted`;
    await pause(100);
  }
  throw new Error(`call ${outcome}, but the server's handler was never cancelled`);
});

await runCase('closes during a call', async () => {
  // The bystander goes to the server itself, past the tap, at its Streamable HTTP endpoint.
  const other = server.url ? await bystander(server.endpoint ?? server.url) : undefined;
  const closing = await client.connect(transport, target, revision);
  const callId = id('close');
  const call = closing.call('slow', { id: callId, ms: 20_000 }).catch(() => undefined);
  await pause(400);
  await within(10_000, closing.close(), 'close');
  void call;
  if (other === undefined) return 'closed (stdio: the server process is the client’s own)';
  const sum = await other.add(20, 22);
  if (sum !== 42) throw new Error(`the bystander got ${sum}`);
  await other.close();
  return 'closed; the bystander was answered';
});

await runCase('reconnects', async () => {
  await session.close();
  session = await client.connect(transport, target, revision);
  const names = await session.listTools();
  if (!names.includes('add')) throw new Error(`add missing from ${names.join(', ')}`);
  const sum = sumOf(await session.call('add', { a: 1, b: 1 }));
  if (sum !== 2) throw new Error(`1 + 1 answered ${sum}`);
  return 'listed and called again';
});

await session?.close().catch(() => undefined);
try {
  process.stdout.write(`WILD-REVISION ${spoken().sort().join(', ')}\n`);
} catch {
  // Nothing was spoken (the client never reached the server).
}
process.exit(0);
