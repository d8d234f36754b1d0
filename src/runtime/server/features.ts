/**
 * The seam between the dispatch core and the features (features/): the core names what it needs
 * from them here, and `installFeatures` (features/index.ts) fills it in once at start-up. So the
 * session and the request context call a feature without importing it, and the imports of the
 * runtime point one way: features → server → protocol (docs/runtime-layers.md).
 */
import type { InputOptions, JsonObject, LoggingLevel, Validator } from '../api.js';
import type { RequestId } from '../protocol/jsonrpc.js';
import type { Context } from './context.js';
import type { MethodEntry } from './method-common.js';
import type { Outbound } from './outbound.js';
import type { ChangeEvent } from './server.js';
import type { Session } from './session.js';

/** A client notification a feature reads (cancellation and initialized are the core's own). */
export type NotificationHandler = (session: Session, message: JsonObject) => void;

export interface Features {
  /** The handler of each method the runtime answers besides `initialize`, by wire name. */
  readonly methods: ReadonlyMap<string, MethodEntry>;
  readonly notifications: ReadonlyMap<string, NotificationHandler>;
  /** The client's answer to a server→client request. */
  clientResponse(session: Session, id: RequestId, message: JsonObject): void;
  /** Sends a server→client request for a handler (elicitation, sampling, roots) and waits for the answer. */
  requestClient(
    session: Session,
    context: Context,
    method: string,
    capability: string,
    params: JsonObject | undefined,
    options: InputOptions | undefined,
  ): Promise<JsonObject>;
  /** Cancels the server→client requests a cancelled request made. */
  cancelOutgoing(session: Session, context: Context, reason: string): void;
  sendLog(
    session: Session,
    context: Context,
    level: LoggingLevel,
    data: unknown,
    logger: string | undefined,
  ): Promise<void>;
  /** The params of an elicitation request, with what URL mode adds. */
  elicitationParams(session: Session, params: JsonObject): JsonObject;
  completeElicitation(session: Session, context: Context, elicitationId: string): boolean;
  /** Answers an error a handler threw that asks the client for input; false when it is not one. */
  answerInputError(session: Session, context: Context, error: unknown): boolean;
  /** 2026-07-28: reads a request's input state; false when it answered the request with an error. */
  openInputState(
    session: Session,
    idText: string,
    method: string,
    params: JsonObject,
    out: Outbound,
  ): boolean;
  /** 2026-07-28: whether a message that failed its validator passes with its answers left out. */
  validWithoutAnswers(validate: Validator<unknown>, message: JsonObject): boolean;
  /** A stateful session's share of an announced change. */
  changed(session: Session, event: ChangeEvent): void;
}

/** A session's answers before any arrive: shared and frozen, replaced on the first answer. */
export const NO_ANSWERS: Record<string, JsonObject> = Object.freeze(
  Object.create(null) as Record<string, JsonObject>,
);

const notInstalled = (): never => {
  throw new Error('No features are installed in this server core');
};

/** A core without features (unit tests of the core's lists): it answers no method. */
export const NO_FEATURES: Features = Object.freeze({
  methods: new Map<string, MethodEntry>(),
  notifications: new Map<string, NotificationHandler>(),
  clientResponse: () => undefined,
  requestClient: notInstalled,
  cancelOutgoing: () => undefined,
  sendLog: notInstalled,
  elicitationParams: notInstalled,
  completeElicitation: () => false,
  answerInputError: () => false,
  openInputState: () => true,
  validWithoutAnswers: () => false,
  changed: () => undefined,
});
