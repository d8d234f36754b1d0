// The workload's specification, read from bench/workload/, and the checks that keep the benchmark
// honest: a server whose tools or results differ from the specification fails before any timing.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import { benchDataDir } from './paths.mjs';

/** @returns {{ tools: any[], cases: Record<string, { tool: string, args: object, expected: any }> }} */
export function loadWorkload(dir = benchDataDir) {
  const read = (file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  return { tools: read('workload.tools.json').tools, cases: read('workload.cases.json') };
}

/**
 * Throws unless `result` is exactly the case's expected result: deep-equal with strict types and no
 * extra fields, and `structuredContent` keys in the specified order (its text copy must match byte
 * for byte, and the object must serialize to the same bytes).
 */
export function checkResult(caseName, testCase, result) {
  if (!isDeepStrictEqual(result, testCase.expected)) {
    throw new Error(
      `${caseName}: result differs from the expected one:\n${JSON.stringify(result).slice(0, 600)}`,
    );
  }
  if (
    JSON.stringify(result.structuredContent) !== JSON.stringify(testCase.expected.structuredContent)
  ) {
    throw new Error(`${caseName}: structuredContent keys are not in the specified order`);
  }
}

/** Property names and `required` of a JSON schema's top level, for comparing declared tools. */
function shapeOf(schema) {
  return {
    type: schema?.type,
    properties: Object.keys(schema?.properties ?? {}).sort(),
    required: [...(schema?.required ?? [])].sort(),
  };
}

/** Throws unless the server lists the workload's tools with the same top-level schema shapes. */
export function checkToolList(workload, listed) {
  const byName = new Map(listed.map((tool) => [tool.name, tool]));
  for (const tool of workload.tools) {
    const actual = byName.get(tool.name);
    if (actual === undefined) throw new Error(`tools/list lacks ${tool.name}`);
    for (const key of ['inputSchema', 'outputSchema']) {
      if (!isDeepStrictEqual(shapeOf(actual[key]), shapeOf(tool[key]))) {
        throw new Error(
          `tools/list: ${tool.name}.${key} differs from the workload's: ${JSON.stringify(actual[key])}`,
        );
      }
    }
  }
  if (listed.length !== workload.tools.length)
    throw new Error(`tools/list has ${listed.length} tools, expected ${workload.tools.length}`);
}

/** Lists the tools and calls every case once on an initialized peer; throws on any difference. */
export async function verifyPeer(peer, workload) {
  const { tools } = await peer.request('tools/list', {});
  checkToolList(workload, tools);
  for (const [caseName, testCase] of Object.entries(workload.cases)) {
    checkResult(caseName, testCase, await peer.callTool(testCase.tool, testCase.args));
  }
}
