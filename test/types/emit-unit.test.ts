import { describe, expect, it } from 'vitest';
import { emitProtocolTypes } from '../../src/emit/types/index.js';
import type { LoadedSpec } from '../../src/load/spec.js';
import { buildProtocolModel } from '../../src/model/protocol.js';

/** A revision in miniature: a request, its union, a result and an alias of it. */
function tinySpec(): LoadedSpec {
  return {
    revision: '2025-06-18',
    dialect: 'draft-07',
    source: 'tiny.json',
    warnings: [],
    defs: {
      Result: { type: 'object', description: 'Any result.', properties: { _meta: { type: 'object', additionalProperties: {} } } },
      EmptyResult: { $ref: '#/$defs/Result' },
      PingRequest: {
        type: 'object',
        description: 'Are you there?',
        properties: {
          method: { const: 'ping', type: 'string' },
          params: { type: 'object', properties: { note: { type: 'string', description: 'Why.' } }, additionalProperties: false },
        },
        required: ['method'],
      },
      ClientRequest: { anyOf: [{ $ref: '#/$defs/PingRequest' }] },
    },
  };
}

const CONSTANTS = `export const LATEST_PROTOCOL_VERSION = "2025-06-18";
export const JSONRPC_VERSION = "2.0";
export const ErrorCode = {
  ParseError: -32700,
  InternalError: -32603,
  InvalidParamsError: -32602,
  MethodNotFoundError: -32601,
  InvalidRequestError: -32600,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
`;

const MAPS = `export interface ClientRequests {
  "ping": { params: PingRequest["params"]; result: EmptyResult };
}
export interface ServerRequests {
}
export interface ClientNotifications {
}
export interface ServerNotifications {
}
export type ClientRequestMethod = keyof ClientRequests;
export type ServerRequestMethod = keyof ServerRequests;
export type ClientNotificationMethod = keyof ClientNotifications;
export type ServerNotificationMethod = keyof ServerNotifications;
`;

describe('emitProtocolTypes on a tiny schema', () => {
  it('--docs none: exactly these declarations', async () => {
    const text = await emitProtocolTypes(buildProtocolModel(tinySpec()), { docs: 'none' });
    expect(text).toBe(`${CONSTANTS}
export type ClientRequest = PingRequest

export type EmptyResult = Result

export interface ProtocolDefinitions {
ClientRequest: ClientRequest
EmptyResult: EmptyResult
PingRequest: PingRequest
Result: Result
}

export interface PingRequest {
method: "ping"
params?: {
note?: string
}
[k: string]: unknown | undefined
}

export interface Result {
_meta?: {
[k: string]: unknown | undefined
}
[k: string]: unknown | undefined
}

${MAPS}`);
  });

  it('--docs link: one link per definition and nothing from the descriptions', async () => {
    const text = await emitProtocolTypes(buildProtocolModel(tinySpec()), { docs: 'link' });
    expect(text).toContain(`/** @see https://modelcontextprotocol.io/specification/2025-06-18/schema#pingrequest */
export interface PingRequest {
method: "ping"
params?: {
note?: string
}`);
    expect(text).toContain('/** @see https://modelcontextprotocol.io/specification/2025-06-18/schema#emptyresult */\nexport type EmptyResult = Result\n');
    expect(text).toContain('/** Every definition of the 2025-06-18 schema, by name. */\nexport interface ProtocolDefinitions {');
    for (const prose of ['Any result.', 'Are you there?', 'Why.']) expect(text).not.toContain(prose);
  });

  it('--docs full: descriptions on types and members, with the link after the text', async () => {
    const text = await emitProtocolTypes(buildProtocolModel(tinySpec()), { docs: 'full' });
    expect(text).toContain(`/**
 * Are you there?
 *
 * @see https://modelcontextprotocol.io/specification/2025-06-18/schema#pingrequest
 */
export interface PingRequest {
method: "ping"
params?: {
/**
 * Why.
 */
note?: string
}`);
  });
});
