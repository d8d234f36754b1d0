/**
 * An npm command the tests need (an install of peers or tools) run again when the registry
 * connection fails mid-way (ECONNRESET, a timeout, a DNS blip): a network fault on the machine is
 * not a result of the code under test. Any other failure is thrown at once.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const NETWORK_FAULT = /\b(?:ECONNRESET|ETIMEDOUT|EAI_AGAIN|ECONNREFUSED|ENOTFOUND|ERR_SOCKET_TIMEOUT)\b|npm error network/;
const ATTEMPTS = 3;

export async function npmWithRetry(args: string[], options: { cwd?: string } = {}): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await promisify(execFile)('npm', args, { ...options, maxBuffer: 64 * 1024 * 1024 });
      return;
    } catch (error) {
      const output = `${(error as { stderr?: string }).stderr ?? ''}${(error as Error).message}`;
      if (attempt >= ATTEMPTS || !NETWORK_FAULT.test(output)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 2000 * attempt));
    }
  }
}
