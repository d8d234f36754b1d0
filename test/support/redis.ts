/**
 * A real redis-server for tests that share state between server processes: started on a free
 * loopback port without persistence, stopped with the test file's other children. `npm run test:all`
 * installs Debian's redis-server first when it is missing (scripts/system-packages.mjs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { findBinary } from '../../scripts/system-packages.mjs';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts redis-server (pushed on `running`, to be killed after the servers using it) and returns its URL. */
export async function startRedis(running: ChildProcess[]): Promise<string> {
  const binary = findBinary('redis-server');
  if (binary === undefined) throw new Error('redis-server is not installed: `npm run test:all` installs it (scripts/system-packages.mjs); run that first');
  const port = await freePort();
  const redis = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(redis);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    redis.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
    redis.on('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  return `redis://127.0.0.1:${port}`;
}
