/**
 * Raw JSON-RPC over Streamable HTTP for tests that check the wire without a client: a 2025-11-25
 * session (initialize, then requests with its session id) or 2026-07-28 requests with `_meta` and
 * the headers that revision requires. Answers come from the JSON body or the SSE stream.
 */
import type { JsonObject } from '../../src/runtime/api.js';
import { meta } from './task-server.js';

type Message = Record<string, any>;

/** What a test needs from a connection: one request, one answer (result or error). */
export interface Connection {
  request(method: string, params?: Message): Promise<Message>;
}

const BASE = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
let nextId = 1;

/** The JSON-RPC response in a POST's answer: the body, or the SSE message carrying the id. */
async function answerOf(response: Response, id: number): Promise<Message> {
  const text = await response.text();
  if (text.startsWith('{')) return JSON.parse(text) as Message;
  const messages = [...text.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1]!) as Message);
  const answer = messages.find((message) => message['id'] === id && message['method'] === undefined);
  if (answer === undefined) throw new Error(`no answer to request ${id} in ${text}`);
  return answer;
}

async function post(url: string, headers: Record<string, string>, method: string, params: Message): Promise<Message> {
  const id = nextId++;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
  return answerOf(response, id);
}

/** A stateful session over HTTP at `era` (2025-11-25 unless given). */
export async function statefulHttp(url: string, era = '2025-11-25'): Promise<Connection> {
  const initialize = await fetch(url, {
    method: 'POST',
    headers: BASE,
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: era, capabilities: {}, clientInfo: { name: 'wire-test', version: '1' } } }),
  });
  const session = initialize.headers.get('mcp-session-id')!;
  await initialize.text();
  const headers = { ...BASE, 'mcp-session-id': session, 'mcp-protocol-version': era };
  await (await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  return { request: (method, params = {}) => post(url, headers, method, params) };
}

/** 2026-07-28 requests over HTTP declaring `capabilities`, with `Mcp-Method` and `Mcp-Name`. */
export function statelessHttp(url: string, capabilities: JsonObject): Connection {
  return {
    request(method, params = {}) {
      const name = (params['name'] ?? params['taskId']) as string | undefined;
      const headers: Record<string, string> = {
        ...BASE,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(name === undefined ? {} : { 'mcp-name': name }),
      };
      return post(url, headers, method, { ...params, _meta: meta(capabilities) });
    },
  };
}
