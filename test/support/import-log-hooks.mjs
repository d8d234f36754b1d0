// Module hooks for a child process (test/write/lazy-imports.test.ts): every resolved module URL is
// appended to the file named by MCP_GEN_IMPORT_LOG with the module that imported it (tab-separated),
// so a test can tell which packages a run loaded and who asked for them.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if (process.env.MCP_GEN_IMPORT_LOG) appendFileSync(process.env.MCP_GEN_IMPORT_LOG, `${result.url}\t${context.parentURL ?? ''}\n`);
  return result;
}
