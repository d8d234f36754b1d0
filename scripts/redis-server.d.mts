import type { ChildProcess } from 'node:child_process';
/** A TCP port free on 127.0.0.1 right now. */
export declare function freePort(): Promise<number>;
/** Starts redis-server (loopback, no persistence) on `port` or a free one; resolves once it accepts connections. */
export declare function startRedisServer(port?: number): Promise<{ child: ChildProcess; port: number; url: string }>;
