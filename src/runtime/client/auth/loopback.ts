/// <reference types="node" />
/**
 * A redirect target for command-line apps (RFC 8252 §7.3): a one-shot HTTP server on 127.0.0.1.
 * `openAuthorizationUrl` hands the URL to `open` (a browser, or a printed line) and resolves with the
 * URL the browser was redirected to, once it arrives; the server then closes.
 */
import { createServer, type Server } from 'node:http';

export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port><path>`: register this as the client's redirect URI. */
  redirectUrl: string;
  openAuthorizationUrl: (url: URL) => Promise<string>;
  close: () => Promise<void>;
}

export interface LoopbackOptions {
  /** Shows the authorization URL: opens a browser, or prints it. */
  open: (url: URL) => void | Promise<void>;
  /** Default 0: any free port. */
  port?: number;
  /** Default `/callback`. */
  path?: string;
  /** How long to wait for the browser (default 5 minutes). */
  timeoutMs?: number;
}

export async function loopbackRedirect(options: LoopbackOptions): Promise<LoopbackRedirect> {
  const path = options.path ?? '/callback';
  let deliver: ((url: string) => void) | undefined;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== path || deliver === undefined) {
      response.writeHead(404).end();
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
      .end('Signed in. You can close this window.\n');
    deliver(`${redirectUrl}${url.search}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const redirectUrl = `http://127.0.0.1:${port}${path}`;
  const close = (): Promise<void> => new Promise((resolve) => server.close(() => resolve()));
  return {
    redirectUrl,
    close,
    openAuthorizationUrl: (url) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error('no redirect from the browser in time')),
          options.timeoutMs ?? 300_000,
        );
        deliver = (redirected) => {
          clearTimeout(timer);
          deliver = undefined;
          resolve(redirected);
        };
        Promise.resolve(options.open(url)).catch((error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        });
      }),
  };
}
