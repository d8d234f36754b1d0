/// <reference types="node" />
/**
 * The deprecated HTTP+SSE transport of 2024-11-05: a GET stream whose first `endpoint` event names
 * the URL to POST messages to. Streamable HTTP falls back to it when the initialize POST is refused.
 */
import { cancelledNotification } from './cancellation.js';
import { ConnectionClosedError, DEFAULT_MAX_MESSAGE_BYTES, HttpStatusError } from './errors.js';
import type { HttpClientOptions } from './http.js';
import { authorizedExchange } from './http-auth.js';
import { isEventStream, parseJson, readSse, type WireResponse } from './http-wire.js';
import type { ClientTransport, OutgoingInfo } from './transport.js';
import { CANCELLED } from '../protocol/methods.js';

export class LegacySseTransport implements ClientTransport {
  private readonly url: URL;
  private readonly options: HttpClientOptions;
  private endpoint: URL | undefined;
  private stream: WireResponse | undefined;
  private isClosed = false;
  private readonly open = new Set<WireResponse>();

  constructor(options: HttpClientOptions) {
    this.url = new URL(options.url);
    this.options = options;
  }

  async start(
    receive: (message: unknown, text: string) => void,
    closed: (error?: Error) => void,
  ): Promise<void> {
    const response = await authorizedExchange(
      this.options,
      this.url,
      'GET',
      { ...this.options.headers, accept: 'text/event-stream' },
      undefined,
    );
    const maxBytes = this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (response.status !== 200 || !isEventStream(response)) {
      const body = await response.text(maxBytes);
      throw new HttpStatusError(response.status, body, 'legacy SSE GET');
    }
    this.stream = response;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('legacy SSE: no endpoint event within 10 s')),
        10_000,
      );
      void readSse(
        response,
        (event) => {
          if (event.event === 'endpoint') {
            this.endpoint = new URL(event.data.trim(), this.url);
            if (this.endpoint.origin !== this.url.origin) {
              reject(new Error('legacy SSE: the endpoint event names another origin'));
              return;
            }
            clearTimeout(timer);
            resolve();
          } else if (event.event === 'message') {
            const message = parseJson(event.data);
            if (message !== undefined) receive(message, event.data);
          }
        },
        () => {},
        this.open,
        maxBytes,
      ).then(
        () => {
          clearTimeout(timer);
          reject(new ConnectionClosedError('legacy SSE stream ended'));
          if (!this.isClosed) closed(new ConnectionClosedError('The server closed the SSE stream'));
        },
        // An event over the limit: the one stream every answer comes on is gone with it.
        (error: Error) => {
          clearTimeout(timer);
          reject(error);
          if (!this.isClosed) closed(error);
        },
      );
    });
  }

  async send(text: string, info: OutgoingInfo): Promise<void> {
    if (this.isClosed || !this.endpoint) throw new ConnectionClosedError();
    const response = await authorizedExchange(
      this.options,
      this.endpoint,
      'POST',
      { ...this.options.headers, 'content-type': 'application/json' },
      text,
    );
    const status = response.status;
    const body = await response.text(this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
    if (status < 200 || status >= 300)
      throw new HttpStatusError(status, body, `${info.method || 'response'} POST`);
  }

  /** The legacy transport is stateful only: `notifications/cancelled`, like any message. */
  cancel(id: string | number, reason: string): Promise<void> {
    return this.send(cancelledNotification(id, reason), { method: CANCELLED });
  }

  setProtocolVersion(): void {}

  close(): Promise<void> {
    this.isClosed = true;
    this.stream?.close();
    for (const response of this.open) response.close();
    return Promise.resolve();
  }
}
