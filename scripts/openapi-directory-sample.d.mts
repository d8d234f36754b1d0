export interface SampleRecord {
  name: string;
  dir: string;
  manifest: string;
  tools: number;
  reason?: string;
  crash?: string;
  generated?: boolean;
}
export declare function directoryFiles(): string[];
export declare function seededSample(files: readonly string[], size: number, seed: number): string[];
export declare function importSample(files: readonly string[], work: string): Promise<SampleRecord[]>;
export declare function generateServers(records: SampleRecord[]): { name: string; error: string }[];
export declare function typeCheckAll(records: readonly SampleRecord[], work: string, perProgram?: number): { ok: boolean; output: string };
