export interface WorkloadCase {
  tool: string;
  args: Record<string, unknown>;
  expected: { content: unknown[]; structuredContent: Record<string, unknown> };
}

export interface Workload {
  tools: { name: string; inputSchema: object; outputSchema: object }[];
  cases: Record<string, WorkloadCase>;
}

export declare function loadWorkload(dir?: string): Workload;
export declare function checkResult(
  caseName: string,
  testCase: WorkloadCase,
  result: unknown,
): void;
export declare function checkToolList(workload: Workload, listed: unknown[]): void;
export declare function verifyPeer(
  peer: import('./client.mjs').StdioPeer,
  workload: Workload,
): Promise<void>;
