/** express comes in with the SDK 1.x, without types; sdk-server.test.ts uses only this much of it. */
declare module 'express' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  type Handler = (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;
  interface App extends Handler {
    use(...handlers: unknown[]): void;
    post(path: string, ...handlers: unknown[]): void;
  }
  interface Express {
    (): App;
    json(): Handler;
  }
  const express: Express;
  export default express;
}
