/** A platform serving the handler: its MCP endpoint, its output so far, and how to stop it. */
export interface Deployment {
  url: string;
  pid: number | undefined;
  output(): string;
  stop(): Promise<void>;
}
export declare const PLATFORMS_DIR: string;
export declare const WORK_DIR: string;
export declare const TOOLS: Record<'bun' | 'deno' | 'workerd' | 'next' | 'hono' | 'hono-node-server', string>;
export declare const WORKERD_COMPATIBILITY_DATE: string;
export declare function ensurePlatforms(options?: { quiet?: boolean }): void;
export declare function freePort(): Promise<number>;
export declare function deployBun(handlerModule: string, dir: string): Promise<Deployment>;
export declare function deployDeno(handlerModule: string, dir: string, permissions?: readonly string[]): Promise<Deployment>;
export declare function deployWorkerd(handlerModule: string, dir: string): Promise<Deployment>;
export declare function deployHono(handlerModule: string, dir: string): Promise<Deployment>;
export declare function buildNext(handlerModule: string, dir: string): void;
export declare function startNext(dir: string): Promise<Deployment>;
export declare const WEB_ENTRY: string;
export declare function buildWebServer(manifest: string, handlersDir: string, outDir: string): string;
