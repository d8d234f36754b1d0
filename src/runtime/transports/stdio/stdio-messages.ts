/**
 * One line of stdin (or one POST of the legacy HTTP+SSE transport) as a JSON-RPC message: checked
 * against the size and depth limits, parsed, and handed to the stdio session, or to a session of
 * its own when it is a 2026-07-28 request. No `node:*` import: the Web-standard handler serves the
 * legacy transport too (web-imports.test.ts).
 */
import {
  idJson,
  isObject,
  isRequestId,
  nestsDeeperThan,
  parseErrorMessage,
  tooDeepMessage,
  tooLargeMessage,
} from '../../protocol/jsonrpc.js';
import { scanRequestId } from '../../protocol/json-scan.js';
import type { ServerCore } from '../../server/server.js';
import { Session } from '../../server/session.js';
import { checkStateless, isStatelessMessage, withResultFields } from '../../server/stateless.js';
import type { Outbound } from '../../server/outbound.js';
import { CANCELLED } from '../../protocol/methods.js';

const BLANK = /^\s*$/;

/** The UTF-8 length of `text`, as `Buffer.byteLength` gives it (a lone surrogate is 3 bytes). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

export class StdioMessages {
  private readonly core: ServerCore;
  /** The stdio session: every message that is not a 2026-07-28 request (or its cancellation). */
  private readonly session: Session;
  /** stdout (stdio-output.ts), or a legacy HTTP+SSE session's stream (legacy-sse.ts). */
  private readonly writer: Outbound;
  private readonly maxMessageBytes: number;
  private readonly maxDepth: number;
  /** Running 2026-07-28 requests by id, so `notifications/cancelled` reaches them. */
  private readonly stateless = new Map<string | number, Session>();

  constructor(core: ServerCore, session: Session, writer: Outbound) {
    this.core = core;
    this.session = session;
    this.writer = writer;
    this.maxMessageBytes = core.limits.maxMessageBytes;
    this.maxDepth = core.limits.maxDepth;
  }

  /** Until the first line: a byte order mark before it (as some Windows shells write) is dropped. */
  private first = true;

  /** One complete line (without its newline). */
  receive(line: string): void {
    const { maxMessageBytes, maxDepth, writer } = this;
    if (this.first) {
      this.first = false;
      if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    }
    // A UTF-16 code unit is 1 to 3 bytes of UTF-8: only long lines need counting.
    if (
      line.length > maxMessageBytes ||
      (line.length * 3 > maxMessageBytes && utf8Length(line) > maxMessageBytes)
    ) {
      writer.respond(tooLargeMessage(maxMessageBytes, scanRequestId(line, maxMessageBytes)));
      return;
    }
    if (line.length > maxDepth && nestsDeeperThan(line, maxDepth)) {
      writer.respond(tooDeepMessage(maxDepth, scanRequestId(line, maxMessageBytes)));
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      if (!BLANK.test(line))
        writer.respond(parseErrorMessage(scanRequestId(line, maxMessageBytes)));
      return;
    }
    if (this.cancelsStateless(message)) return;
    if (
      isObject(message) &&
      !Array.isArray(message) &&
      !this.session.initialized &&
      isStatelessMessage(message, undefined)
    ) {
      this.receiveStateless(message);
      return;
    }
    this.session.receive(message, writer);
  }

  /**
   * Checked before the stateless branch: a 2026-07-28 client's cancellation carries the same
   * `_meta` envelope as its requests, and must reach the running request it names.
   */
  private cancelsStateless(message: unknown): boolean {
    if (!isObject(message) || message['method'] !== CANCELLED || !isObject(message['params']))
      return false;
    const target = message['params']['requestId'];
    const running = isRequestId(target) ? this.stateless.get(target) : undefined;
    if (running === undefined) return false;
    running.receive(message, this.writer);
    return true;
  }

  /** A 2026-07-28 request: checked, then served by a session of its own; its results gain `resultType`. */
  private receiveStateless(message: { [key: string]: unknown }): void {
    const { core, writer, stateless } = this;
    const id = message['id'];
    const method = message['method'];
    if (typeof method !== 'string' || !isRequestId(id)) return;
    const checked = checkStateless(core, message, undefined);
    if ('status' in checked) {
      writer.respond(checked.text);
      return;
    }
    const one = Session.stateless(core, checked);
    const idText = idJson(id);
    stateless.set(id, one);
    one.receive(message, {
      canEmit: true,
      respond: (text) => {
        stateless.delete(id);
        writer.respond(withResultFields(text, idText, method, core));
      },
      emit: (text) => writer.emit(text),
      abandon: () => stateless.delete(id),
    });
  }
}
