/// <reference types="node" />
/**
 * The HTTP plumbing both client transports share: one request/response exchange on
 * `node:http`/`node:https`, reading a body, and reading an SSE stream event by event.
 */
import { Buffer } from 'node:buffer';
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface SseEvent {
  event: string;
  data: string;
  id: string | undefined;
}

/** One HTTP exchange; aborting `signal` closes it, response included (the server sees the disconnect). */
export function exchange(
  url: URL,
  method: string,
  headers: OutgoingHttpHeaders,
  body: string | undefined,
  timeoutMs?: number,
  signal?: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = { ...headers };
    if (body !== undefined) outgoing['content-length'] = Buffer.byteLength(body);
    const request = send(
      url,
      signal === undefined ? { method, headers: outgoing } : { method, headers: outgoing, signal },
      resolve,
    );
    request.on('error', reject);
    if (timeoutMs !== undefined)
      request.setTimeout(timeoutMs, () => request.destroy(new Error(`${method} timed out`)));
    request.end(body);
  });
}

export function drain(response: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    response
      .on('end', resolve)
      .on('error', () => resolve())
      .on('close', resolve);
    response.resume();
  });
}

export function readText(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.on('end', () => resolve(text));
    response.on('error', () => resolve(text));
    response.on('close', () => resolve(text));
  });
}

/** Reads SSE events until the stream ends (or breaks); `retry` fields are reported as they come. */
export function readSse(
  response: IncomingMessage,
  onEvent: (event: SseEvent) => void,
  onRetry: (ms: number) => void,
  open: Set<IncomingMessage>,
): Promise<void> {
  open.add(response);
  return new Promise((resolve) => {
    let buffer = '';
    let data: string[] = [];
    let event = '';
    let id: string | undefined;
    let any = false;
    const dispatch = (): void => {
      if (any) onEvent({ event: event === '' ? 'message' : event, data: data.join('\n'), id });
      data = [];
      event = '';
      id = undefined;
      any = false;
    };
    const line = (text: string): void => {
      if (text === '') return dispatch();
      if (text.startsWith(':')) return;
      const colon = text.indexOf(':');
      const field = colon === -1 ? text : text.slice(0, colon);
      let value = colon === -1 ? '' : text.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') {
        data.push(value);
        any = true;
      } else if (field === 'event') {
        event = value;
        any = true;
      } else if (field === 'id') {
        if (!value.includes('\0')) id = value;
        any = true;
      } else if (field === 'retry' && /^\d+$/.test(value)) {
        onRetry(Number(value));
      }
    };
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      buffer += chunk;
      let newline = buffer.search(/\r\n|\r|\n/);
      while (newline !== -1) {
        const crlf = buffer.startsWith('\r\n', newline);
        line(buffer.slice(0, newline));
        buffer = buffer.slice(newline + (crlf ? 2 : 1));
        newline = buffer.search(/\r\n|\r|\n/);
      }
    });
    const end = (): void => {
      open.delete(response);
      resolve();
    };
    response.on('end', end);
    response.on('error', end);
    response.on('close', end);
  });
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isAnswerTo(message: unknown, id: string | number | null | undefined): boolean {
  if (id === undefined || typeof message !== 'object' || message === null) return false;
  const m = message as { id?: unknown; method?: unknown };
  return m.method === undefined && m.id === id;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
