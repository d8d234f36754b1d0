import { createRequire } from 'node:module';
import { dirname } from 'node:path';

type TypeCompiler = typeof import('json-schema-to-typescript');

/**
 * json-schema-to-typescript, loaded without prettier. The package requires prettier as it loads,
 * for its formatting step, and prettier's CommonJS entry at once starts importing its whole ES
 * build, a large body of code; we never let it format (`format: false`: our printer lays the
 * declarations out). So while the package loads, its `require('prettier')` gets a stand-in that
 * refuses to format, and the stand-in is taken out of the module cache again at once, so anything
 * else that requires prettier gets the real one. A run whose only miss is one tool's types then
 * never loads prettier at all.
 */
let loaded: TypeCompiler | undefined;

export function typeCompiler(): TypeCompiler {
  if (loaded !== undefined) return loaded;
  const require = createRequire(import.meta.url);
  const entry = require.resolve('json-schema-to-typescript');
  const prettierPath = require.resolve('prettier', { paths: [dirname(entry)] });
  const placeholder = require.cache[prettierPath] === undefined && require.cache[entry] === undefined;
  if (placeholder) {
    const refuse = (): never => {
      throw new Error('mcp-gen loads json-schema-to-typescript without prettier: call it with format: false');
    };
    require.cache[prettierPath] = { id: prettierPath, filename: prettierPath, loaded: true, exports: { format: refuse } } as NodeJS.Module;
  }
  try {
    loaded = require(entry) as TypeCompiler;
  } finally {
    if (placeholder) delete require.cache[prettierPath];
  }
  return loaded;
}
