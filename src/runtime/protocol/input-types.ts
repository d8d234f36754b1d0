/**
 * What handlers ask the client for (elicitation in form and URL mode, sampling with or without
 * tools) and what comes back: the wire shapes of the newest revision, loosely typed like the rest
 * of `api.ts` (which re-exports them). Shared by the server runtime and the client runtime.
 */
import type { JsonObject } from '../api.js';

/** Form mode: the client shows a form for `requestedSchema` (flat, primitive properties). */
export interface ElicitFormParams extends JsonObject {
  mode?: 'form';
  message: string;
  requestedSchema: JsonObject;
}
/**
 * URL mode (2025-11-25 on): the client asks the user to open `url`; what happens there never
 * passes through the client. `elicitationId` (2025-11-25 only; made up when left out) is the id
 * `completeElicitation` and `UrlElicitationRequiredError` refer to.
 */
export interface ElicitUrlParams extends JsonObject {
  mode: 'url';
  message: string;
  url: string;
  elicitationId?: string;
}
export type ElicitParams = ElicitFormParams | ElicitUrlParams;
export interface ElicitResult extends JsonObject {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}
/** A URL elicitation's answer has no content: `accept` means the user agreed to open the URL. */
export interface ElicitUrlResult extends JsonObject {
  action: 'accept' | 'decline' | 'cancel';
}

/** A tool the client's model may call during tool-enabled sampling (2025-11-25 on). */
export interface SamplingTool extends JsonObject {
  name: string;
  description?: string;
  inputSchema: JsonObject;
}
/** `sampling/createMessage` params, as the newest revision spells them. */
export interface SampleParams extends JsonObject {
  messages: JsonObject[];
  maxTokens: number;
  systemPrompt?: string;
  /** `"thisServer"`/`"allServers"` need the client's `sampling.context`. */
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  stopSequences?: string[];
  metadata?: JsonObject;
  modelPreferences?: JsonObject;
  /** Needs the client's `sampling.tools` (2025-11-25 on). */
  tools?: SamplingTool[];
  /** Needs the client's `sampling.tools` (2025-11-25 on). */
  toolChoice?: { mode?: 'auto' | 'required' | 'none' };
}
export interface SampleResult extends JsonObject {
  role: 'user' | 'assistant';
  /** One content block, or (with tools) several, e.g. `tool_use` blocks. */
  content: JsonObject | JsonObject[];
  model: string;
  stopReason?: string;
}
