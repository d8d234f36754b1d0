import { stringLiteral } from './escape.js';
import { byCodeUnit, isSafeIdentifier } from './names.js';

/**
 * One generated source file. Code is appended as text; imports are declared as symbols and printed
 * at the top, sorted, type-only imports separate, so no emitter writes an import line by hand.
 */
export class SourceFile {
  private readonly valueImports = new Map<string, Set<string>>();
  private readonly typeImports = new Map<string, Set<string>>();
  private readonly chunks: string[] = [];

  /** Declares `import { name } from from`; returns the name to use in code. */
  importValue(name: string, from: string): string {
    return this.addImport(this.valueImports, name, from);
  }

  /** Declares `import type { name } from from`; returns the name to use in code. */
  importType(name: string, from: string): string {
    return this.addImport(this.typeImports, name, from);
  }

  private addImport(map: Map<string, Set<string>>, name: string, from: string): string {
    if (!isSafeIdentifier(name)) throw new Error(`not an importable identifier: ${name}`);
    let names = map.get(from);
    if (!names) map.set(from, (names = new Set()));
    names.add(name);
    return name;
  }

  /** Appends raw code. Callers build it only from escaped values (see escape.ts). */
  push(...code: string[]): this {
    this.chunks.push(...code);
    return this;
  }

  toString(): string {
    const lines: string[] = [];
    const modules = [...new Set([...this.valueImports.keys(), ...this.typeImports.keys()])].sort(byCodeUnit);
    for (const from of modules) {
      const types = [...(this.typeImports.get(from) ?? [])].filter((n) => !this.valueImports.get(from)?.has(n));
      const values = [...(this.valueImports.get(from) ?? [])];
      if (types.length > 0) lines.push(`import type { ${types.sort(byCodeUnit).join(', ')} } from ${stringLiteral(from)};`);
      if (values.length > 0) lines.push(`import { ${values.sort(byCodeUnit).join(', ')} } from ${stringLiteral(from)};`);
    }
    const head = lines.length > 0 ? `${lines.join('\n')}\n\n` : '';
    return head + this.chunks.join('');
  }
}
