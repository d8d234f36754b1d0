/**
 * Split invariance, quick runs (issue 39 item 4): every parser that reads the wire gives the same
 * messages for every chunking of the same bytes. SSE is sse.test.ts; stdio both sides, JSON-RPC
 * batches and the server's HTTP bodies here. split.slow.test.ts runs the same properties longer.
 */
import { describe, it } from 'vitest';
import { httpBodySplitInvariance } from './http-body-property.js';
import { stdioClientSplitInvariance, stdioServerSplitInvariance } from './stdio-property.js';

describe('split invariance (quick)', () => {
  it('stdio, client side: the server output read as the same messages', () => {
    stdioClientSplitInvariance(80);
  });

  it('stdio, server side: the same answers, batches and the size limit included', async () => {
    await stdioServerSplitInvariance(8);
  });

  it('HTTP, server side: a POST body read as the same request, batches and the size limit included', async () => {
    await httpBodySplitInvariance(4);
  });
});
