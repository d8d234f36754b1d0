import { BINDING_NAMES, type NotificationMethod, type ParamsPresence, type ProtocolModel, type RequestMethod } from '../../model/protocol.js';
import { jsdoc, stringLiteral } from '../../printer/escape.js';
import { propertyKey } from '../../printer/names.js';
import { compileTypes } from './compile-types.js';
import { compilerInput, rootDescription, ROOT_NAME, type DocsMode } from './compiler-input.js';
import { scanDeclarations, type ScannedDeclaration } from './scan.js';

export type { DocsMode } from './compiler-input.js';

export interface ProtocolTypesOptions {
  /** `full`: the schema's descriptions; `link`: a link to the spec section per type; `none`: no comments. */
  docs: DocsMode;
}

/**
 * `types.ts` for one protocol revision: constants, every definition as a type named as in the
 * schema, the `ProtocolDefinitions` map, and the method maps (`ClientRequests['tools/call']`).
 * Unformatted: the writer runs prettier.
 */
export async function emitProtocolTypes(model: ProtocolModel, options: ProtocolTypesOptions): Promise<string> {
  const docs = options.docs;
  const input = compilerInput(model, docs);
  // JSON Schema objects are open unless they say otherwise, and so are these types: an index
  // signature wherever the schema allows unknown members. Types then accept exactly the messages
  // the generated validators accept (the spec's examples carry such extras), like the official
  // SDK's passthrough types. Misspelled optional members are the validators' job to catch.
  const compiled = await compileTypes(input, ROOT_NAME, {
    strictIndexSignatures: true,
    ignoreMinAndMaxItems: true,
    // $defs are keyed by identifier already; nothing else may be named.
    customName: (_schema, definitionName) => definitionName,
  });

  const scanned = scanDeclarations(compiled, { dropComments: docs !== 'full' });
  checkDeclarations(model, scanned.declarations.map((d) => d.name));
  const body = separated(scanned.text, scanned.declarations, docs === 'link' ? linkDoc(model) : () => '');

  const comment = (text: string): string => (docs === 'none' ? '' : jsdoc(text));
  return [
    constants(model, comment),
    body.trimEnd(),
    '',
    methodMaps(model, comment),
  ].join('\n');
}

/** Every definition declared exactly once under its identifier, and nothing unexpected besides. */
function checkDeclarations(model: ProtocolModel, declared: readonly string[]): void {
  const expected = new Set([ROOT_NAME, ...Object.values(model.definitions).map((d) => d.identifier)]);
  const seen = new Set<string>();
  for (const name of declared) {
    if (!expected.has(name) || seen.has(name)) {
      throw new Error(`json-schema-to-typescript declared ${seen.has(name) ? 'a second' : 'an unexpected'} type ${name} (${model.revision})`);
    }
    seen.add(name);
  }
  const missing = [...expected].filter((name) => !seen.has(name));
  if (missing.length > 0) throw new Error(`json-schema-to-typescript did not declare ${missing.join(', ')} (${model.revision})`);
}

/** A blank line before each top-level declaration, and the doc `docFor` gives it. */
function separated(text: string, declarations: readonly ScannedDeclaration[], docFor: (name: string) => string): string {
  const parts: string[] = [];
  let from = 0;
  for (const declaration of declarations) {
    const before = text.slice(from, declaration.leadingOffset);
    const tail = (text.slice(Math.max(0, from - 2), from) + before).slice(-2);
    const blank = declaration.leadingOffset === 0 || tail === '\n\n' ? '' : '\n';
    parts.push(before, blank, text.slice(declaration.leadingOffset, declaration.offset), docFor(declaration.name));
    from = declaration.offset;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

/** `--docs link`: the compiler's comments are gone; each definition gets a link to its spec section. */
function linkDoc(model: ProtocolModel): (name: string) => string {
  const byIdentifier = new Map(Object.values(model.definitions).map((d) => [d.identifier, d]));
  return (name) => {
    const definition = byIdentifier.get(name);
    return jsdoc(definition ? `@see ${definition.docUrl}` : rootDescription(model.revision));
  };
}

function constants(model: ProtocolModel, comment: (text: string) => string): string {
  const codes = model.errorCodes.map((e) => `  ${propertyKey(e.name)}: ${e.code},`).join('\n');
  return (
    comment('The protocol revision these types describe.') +
    `export const ${BINDING_NAMES.protocolVersion} = ${stringLiteral(model.protocolVersion)};\n` +
    comment('The JSON-RPC version every message carries.') +
    `export const ${BINDING_NAMES.jsonrpcVersion} = ${stringLiteral(model.jsonrpcVersion)};\n` +
    comment('JSON-RPC error codes: the standard ones and those this revision defines.') +
    `export const ${BINDING_NAMES.errorCode} = {\n${codes}\n} as const;\n` +
    `export type ${BINDING_NAMES.errorCode} = (typeof ${BINDING_NAMES.errorCode})[keyof typeof ${BINDING_NAMES.errorCode}];\n`
  );
}

function methodMaps(model: ProtocolModel, comment: (text: string) => string): string {
  const id = (name: string): string => model.definitions[name]!.identifier;
  const params = (message: string, presence: ParamsPresence): string => (presence === 'none' ? 'undefined' : `${id(message)}[${stringLiteral('params')}]`);
  const requestMap = (name: string, methods: readonly RequestMethod[], who: string): string =>
    comment(`Requests the ${who} sends, by method: their params and the result they are answered with.`) +
    `export interface ${name} {\n${methods
      .map((m) => `  ${stringLiteral(m.method)}: { params: ${params(m.request, m.params)}; result: ${[m.result, ...m.alternatives].map(id).join(' | ')} };\n`)
      .join('')}}\n`;
  const notificationMap = (name: string, methods: readonly NotificationMethod[], who: string): string =>
    comment(`Notifications the ${who} sends, by method.`) +
    `export interface ${name} {\n${methods.map((m) => `  ${stringLiteral(m.method)}: { params: ${params(m.notification, m.params)} };\n`).join('')}}\n`;
  const methodType = (name: string, map: string): string => `export type ${name} = keyof ${map};\n`;

  return [
    requestMap(BINDING_NAMES.clientRequests, model.clientRequests, 'client'),
    requestMap(BINDING_NAMES.serverRequests, model.serverRequests, 'server'),
    notificationMap(BINDING_NAMES.clientNotifications, model.clientNotifications, 'client'),
    notificationMap(BINDING_NAMES.serverNotifications, model.serverNotifications, 'server'),
    methodType(BINDING_NAMES.clientRequestMethod, BINDING_NAMES.clientRequests),
    methodType(BINDING_NAMES.serverRequestMethod, BINDING_NAMES.serverRequests),
    methodType(BINDING_NAMES.clientNotificationMethod, BINDING_NAMES.clientNotifications),
    methodType(BINDING_NAMES.serverNotificationMethod, BINDING_NAMES.serverNotifications),
  ].join('');
}
