import { parentPort } from 'node:worker_threads';
import { formatUnitsHere, type FormatReply, type FormatRequest } from './format.js';

/** A worker thread of format.ts: formats one batch of units and answers it. */

const port = parentPort;
if (!port) throw new Error('format-worker: runs only as a worker thread');
port.on('message', (request: FormatRequest) => {
  formatUnitsHere(request).then(
    (formatted) => port.postMessage({ formatted } satisfies FormatReply),
    (error: unknown) => port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies FormatReply),
  );
});
