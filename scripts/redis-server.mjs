// A throwaway redis-server for the tests, the soak and the benchmarks: loopback only, no
// persistence (a restart forgets everything), on a free port or the one given (a test that
// restarts Redis starts it again on the same port). The caller kills the child it gets back.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { findBinary } from './system-packages.mjs';

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts redis-server and resolves once it accepts connections: `{ child, port, url }`. */
export async function startRedisServer(port) {
  const binary = findBinary('redis-server');
  if (binary === undefined) throw new Error('redis-server is not installed: `node scripts/system-packages.mjs` (run by `npm run test:all`) installs it');
  const chosen = port ?? (await freePort());
  const child = spawn(binary, ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise((resolve, reject) => {
    let out = '';
    const seen = (chunk) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) resolve();
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  return { child, port: chosen, url: `redis://127.0.0.1:${chosen}` };
}
