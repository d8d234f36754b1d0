import type { ServerCommand } from './client.mjs';

export declare const SERVERS: Record<string, ServerCommand & { name: string }>;
export declare function buildOurs(): void;
