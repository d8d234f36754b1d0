import { byCodeUnit, pascalCase } from '../printer/names.js';

/**
 * Definition names become type names unchanged whenever they already are plain PascalCase: MCP's
 * own names (`CallToolRequest`, `JSONRPCMessage`, even `Error`) must survive exactly. Other names
 * (`get-weather`, `class`, `1abc`, `foo_bar`) get a derived PascalCase identifier.
 *
 * "Plain PascalCase" (letters and digits, starting upper case, no lower-case letter right after a
 * digit) is also what json-schema-to-typescript leaves unchanged when it makes a type name, so
 * the identifier chosen here is the one in the output; the emitter checks that anyway. Such names
 * are never reserved words (those are all lower case); declaring `Error` in a module only shadows
 * the global inside that module, and the generated types file never needs the global.
 */
const PLAIN_PASCAL_CASE = /^[A-Z](?:[A-Za-z]|[0-9]+(?![a-z]))*$/;

/** Names the generated protocol bindings declare next to the definitions. */
export const BINDING_NAMES = {
  definitions: 'ProtocolDefinitions',
  clientRequests: 'ClientRequests',
  serverRequests: 'ServerRequests',
  clientNotifications: 'ClientNotifications',
  serverNotifications: 'ServerNotifications',
  clientRequestMethod: 'ClientRequestMethod',
  serverRequestMethod: 'ServerRequestMethod',
  clientNotificationMethod: 'ClientNotificationMethod',
  serverNotificationMethod: 'ServerNotificationMethod',
  protocolVersion: 'LATEST_PROTOCOL_VERSION',
  jsonrpcVersion: 'JSONRPC_VERSION',
  errorCode: 'ErrorCode',
} as const;

const TAKEN_BY_BINDINGS = new Set<string>(Object.values(BINDING_NAMES));

/**
 * Identifier for every definition name. Plain PascalCase names keep themselves; the others are
 * converted in sorted order, with a `_2`, `_3`… suffix on a clash (a converted name has no `_`
 * inside, so the suffix cannot collide with one).
 */
export function assignDefinitionIdentifiers(names: readonly string[]): Map<string, string> {
  const result = new Map<string, string>();
  const used = new Set<string>(TAKEN_BY_BINDINGS);
  const usable = (name: string): boolean => PLAIN_PASCAL_CASE.test(name) && !TAKEN_BY_BINDINGS.has(name);
  for (const name of names) {
    if (usable(name)) {
      result.set(name, name);
      used.add(name);
    }
  }
  for (const name of [...names].sort(byCodeUnit)) {
    if (result.has(name)) continue;
    const base = pascalCase(name).replace(/([0-9])([a-z])/g, (_, digit: string, letter: string) => digit + letter.toUpperCase());
    let candidate = base;
    for (let n = 2; used.has(candidate); n++) candidate = `${base}_${n}`;
    result.set(name, candidate);
    used.add(candidate);
  }
  return result;
}

