import type { ServerCommand } from './client.mjs';

export declare const SERVERS: Record<string, ServerCommand>;
export declare function compileServer(folder: string): void;
export declare function generateOutputs(): void;
export declare function buildOurs(): void;
export declare function bundleOurs(): void;
