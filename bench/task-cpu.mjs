#!/usr/bin/env node
/**
 * `node bench/task-cpu.mjs [rounds]`: CPU of a task round trip (start → completed → result) against
 * a plain call of the same tool, in process over stdio streams, in both eras. The handler waits 2 ms
 * in both cases (a task must still be running on the next turn to become one). CPU is
 * `process.cpuUsage()` of this process, which holds the client side too (the same for every message).
 * Needs `npm run build` first (it imports dist/).
 */
import { PassThrough } from 'node:stream';
import { createServer } from '../dist/runtime/index.js';
import { requestValidators } from '../generated/runtime/request-validators.js';
import { validateInitializeRequest } from '../generated/runtime/initialize-validators.js';
import { resultValidators } from '../generated/runtime/result-validators.js';
import { statelessValidators } from '../generated/runtime/stateless-validators.js';

const rounds = Number(process.argv[2] ?? 2000);
const any = Object.assign(() => true, { errors: null });
const definition = {
  serverInfo: { name: 'task-cpu', version: '1' },
  protocolVersions: ['2026-07-28', '2025-11-25'],
  capabilities: { tools: {} },
  tools: [{ name: 'job', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } }],
  toolBindings: { job: { name: 'job', validateInput: any } },
  resources: [],
  resourceTemplates: [],
  prompts: [],
  initializeValidator: validateInitializeRequest,
  requestValidators,
  resultValidators,
  statelessValidators,
};
const handlers = { tools: { job: async () => (await new Promise((r) => setTimeout(r, 2)), { content: [{ type: 'text', text: 'done' }] }) } };

function connection() {
  const input = new PassThrough();
  const output = new PassThrough();
  createServer(definition, handlers, { logger: () => {} }).serveStdio({ input, output });
  const waiting = new Map();
  let partial = '';
  let nextId = 1;
  output.setEncoding('utf8');
  output.on('data', (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    for (const line of lines) {
      const message = JSON.parse(line);
      if (message.id !== undefined && message.method === undefined) waiting.get(message.id)?.(message), waiting.delete(message.id);
    }
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      input.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  return { request, input };
}

const meta = (extensions) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': extensions ? { extensions: { 'io.modelcontextprotocol/tasks': {} } } : {},
  'io.modelcontextprotocol/clientInfo': { name: 'task-cpu', version: '1' },
});

async function measure(label, once) {
  for (let i = 0; i < 200; i++) await once(); // warm-up
  const start = process.cpuUsage();
  for (let i = 0; i < rounds; i++) await once();
  const used = process.cpuUsage(start);
  const us = (used.user + used.system) / rounds;
  console.log(`${label.padEnd(46)} ${us.toFixed(1)} µs CPU per round`);
  return us;
}

let polls = 0;
const stateless = connection();
const plain26 = await measure('2026-07-28 plain call', () => stateless.request('tools/call', { name: 'job', arguments: {}, _meta: meta(false) }));
const task26 = await measure('2026-07-28 task: call → tasks/get (completed)', async () => {
  const created = (await stateless.request('tools/call', { name: 'job', arguments: {}, _meta: meta(true) })).result;
  if (created.resultType !== 'task') throw new Error('no task was created');
  // Polled as a client honouring a poll interval would: after the work is done, not in a spin.
  for (;;) {
    await new Promise((r) => setTimeout(r, 5));
    const task = (await stateless.request('tasks/get', { taskId: created.taskId, _meta: meta(true) })).result;
    polls++;
    if (task.status === 'completed') return;
  }
});
stateless.input.end();
console.log(`  (${(polls / (rounds + 200)).toFixed(2)} tasks/get per task)`);

const stateful = connection();
await stateful.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'task-cpu', version: '1' } });
const plain25 = await measure('2025-11-25 plain call', () => stateful.request('tools/call', { name: 'job', arguments: {} }));
const task25 = await measure('2025-11-25 task: call → tasks/result', async () => {
  const { task } = (await stateful.request('tools/call', { name: 'job', arguments: {}, task: {} })).result;
  await stateful.request('tasks/result', { taskId: task.taskId });
});
stateful.input.end();

console.log(`task round trip / plain call: 2026-07-28 ${(task26 / plain26).toFixed(2)}×, 2025-11-25 ${(task25 / plain25).toFixed(2)}× (limit 3×)`);
