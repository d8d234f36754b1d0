import {
  Node,
  Project,
  type ObjectLiteralElementLike,
  type ObjectLiteralExpression,
  type SourceFile,
} from 'ts-morph';

/**
 * Additive edits of user-owned files. ts-morph parses the user's file and finds where things go;
 * the edit itself is plain text inserted at those positions, so every byte the user wrote stays
 * where it was (a ts-morph manipulation could reprint neighbouring code).
 */

export interface Insertion {
  position: number;
  text: string;
}

export function parse(text: string): SourceFile {
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: false } });
  return project.createSourceFile('user.ts', text, { overwrite: true });
}

/** Applies insertions (any order) to the original text. Equal positions keep their given order. */
export function applyInsertions(text: string, insertions: readonly Insertion[]): string {
  const ordered = insertions.map((ins, i) => ({ ...ins, i })).sort((a, b) => b.position - a.position || b.i - a.i);
  let out = text;
  for (const { position, text: added } of ordered) out = out.slice(0, position) + added + out.slice(position);
  return out;
}

/** The object literal a top-level `const name = { … }` (optionally `as …`/`satisfies …`) is initialized with. */
export function exportedObject(file: SourceFile, name: string): ObjectLiteralExpression | undefined {
  const declaration = file.getVariableDeclaration(name);
  let init: Node | undefined = declaration?.getInitializer();
  while (init && (Node.isAsExpression(init) || Node.isSatisfiesExpression(init) || Node.isParenthesizedExpression(init))) {
    init = init.getExpression();
  }
  return init && Node.isObjectLiteralExpression(init) ? init : undefined;
}

/** The object literal a property of `object` is initialized with, e.g. `tools: { … }`. */
export function propertyObject(object: ObjectLiteralExpression, key: string): ObjectLiteralExpression | undefined {
  const property = object.getProperties().find((p) => propertyName(p) === key);
  const init = property && Node.isPropertyAssignment(property) ? property.getInitializer() : undefined;
  return init && Node.isObjectLiteralExpression(init) ? init : undefined;
}

/** The wire key a property stands for: `a`, `'a-b'`, `["__proto__"]`, shorthand `a`, method `a()`. */
export function propertyName(property: ObjectLiteralElementLike): string | undefined {
  if (Node.isSpreadAssignment(property)) return undefined;
  const nameNode = property.getNameNode();
  if (Node.isIdentifier(nameNode) || Node.isPrivateIdentifier(nameNode)) return nameNode.getText();
  if (Node.isStringLiteral(nameNode) || Node.isNoSubstitutionTemplateLiteral(nameNode)) return nameNode.getLiteralValue();
  if (Node.isNumericLiteral(nameNode)) return String(nameNode.getLiteralValue());
  if (Node.isComputedPropertyName(nameNode)) {
    const expression = nameNode.getExpression();
    if (Node.isStringLiteral(expression) || Node.isNoSubstitutionTemplateLiteral(expression)) return expression.getLiteralValue();
  }
  return undefined;
}

export function propertyNames(object: ObjectLiteralExpression): Set<string> {
  const names = new Set<string>();
  for (const property of object.getProperties()) {
    const name = propertyName(property);
    if (name !== undefined) names.add(name);
  }
  return names;
}

/** Every name bound at the top level of the file (imports and declarations). */
export function topLevelNames(file: SourceFile): Set<string> {
  const names = new Set<string>();
  for (const declaration of file.getImportDeclarations()) {
    const defaultImport = declaration.getDefaultImport();
    if (defaultImport) names.add(defaultImport.getText());
    const namespace = declaration.getNamespaceImport();
    if (namespace) names.add(namespace.getText());
    for (const named of declaration.getNamedImports()) names.add((named.getAliasNode() ?? named.getNameNode()).getText());
  }
  for (const statement of file.getVariableStatements()) {
    for (const declaration of statement.getDeclarations()) names.add(declaration.getName());
  }
  for (const fn of file.getFunctions()) {
    const name = fn.getName();
    if (name) names.add(name);
  }
  return names;
}

/** Import lines go after the last import (or first in the file). */
export function importInsertion(file: SourceFile, lines: readonly string[]): Insertion | undefined {
  if (lines.length === 0) return undefined;
  const imports = file.getImportDeclarations();
  const last = imports[imports.length - 1];
  if (last === undefined) return { position: 0, text: lines.map((l) => `${l}\n`).join('') };
  return { position: last.getEnd(), text: lines.map((l) => `\n${l}`).join('') };
}

/**
 * New properties for an object literal, each `entries[i]` a complete property without its trailing
 * comma (it may span lines, indented for column 0). They go after the last property when it has a
 * trailing comma, otherwise first, so no existing character has to change.
 */
export function propertyInsertion(object: ObjectLiteralExpression, entries: readonly string[]): Insertion | undefined {
  if (entries.length === 0) return undefined;
  const text = object.getSourceFile().getFullText();
  const open = object.getStart() + 1;
  const properties = object.getProperties();
  const indent = propertyIndent(text, object, properties);
  const block = entries.map((entry) => `\n${reindent(entry, indent)},`).join('');
  const last = properties[properties.length - 1];
  if (last === undefined) {
    return { position: open, text: `${block}\n${lineIndent(text, object.getStart())}` };
  }
  const afterLast = last.getEnd();
  const close = object.getEnd() - 1;
  const between = text.slice(afterLast, close);
  const comma = /^\s*,/.exec(between);
  if (comma) return { position: afterLast + comma[0].length, text: block };
  return { position: open, text: block };
}

function propertyIndent(text: string, object: ObjectLiteralExpression, properties: readonly Node[]): string {
  const first = properties[0];
  if (first !== undefined) {
    const lineStart = text.lastIndexOf('\n', first.getStart() - 1) + 1;
    const before = text.slice(lineStart, first.getStart());
    if (/^[ \t]*$/.test(before)) return before;
  }
  return `${lineIndent(text, object.getStart())}  `;
}

function lineIndent(text: string, position: number): string {
  const lineStart = text.lastIndexOf('\n', position - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

function reindent(entry: string, indent: string): string {
  return entry
    .split('\n')
    .map((line) => (line === '' ? line : indent + line))
    .join('\n');
}
