/**
 * What a client can be asked, below the top-level capability: the elicitation mode (`form`, `url`)
 * and tool-enabled or context-including sampling. Both eras check here before anything is sent
 * (client-requests.ts) or put into an input-required result (input-requests.ts), so a handler gets
 * a clear error instead of the client getting a request it declared it cannot handle.
 */
import type { JsonObject } from '../../api.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { ELICITATION_CREATE, SAMPLING_CREATE_MESSAGE } from '../../protocol/methods.js';

/** Elicitation `mode: "url"` and sampling `tools`/`toolChoice` arrived with this revision. */
export const URL_ELICITATION_SINCE = '2025-11-25';
export const SAMPLING_TOOLS_SINCE = '2025-11-25';

/** The handler asked for something the client did not declare; `requiredCapabilities` names it. */
export class ClientCapabilityError extends Error {
  readonly requiredCapabilities: JsonObject;

  constructor(message: string, requiredCapabilities: JsonObject) {
    super(message);
    this.name = 'ClientCapabilityError';
    this.requiredCapabilities = requiredCapabilities;
  }
}

/**
 * The elicitation modes a client declared. A bare `elicitation: {}` (every client before
 * 2025-11-25, and many after) means form only.
 */
export function elicitationModes(capabilities: JsonObject): { form: boolean; url: boolean } {
  const declared = capabilities['elicitation'];
  if (!isObject(declared)) return { form: false, url: false };
  const form = isObject(declared['form']);
  const url = isObject(declared['url']);
  return { form: form || (!form && !url), url };
}

/**
 * Why the client cannot be sent this request, beyond its top-level capability (checked by the
 * caller), or undefined when it can. Checks the params against the negotiated revision too.
 */
export function inputRefusal(
  method: string,
  params: JsonObject | undefined,
  capabilities: JsonObject,
  revision: string,
): ClientCapabilityError | undefined {
  if (method === ELICITATION_CREATE)
    return elicitationRefusal(params ?? {}, capabilities, revision);
  if (method === SAMPLING_CREATE_MESSAGE)
    return samplingRefusal(params ?? {}, capabilities, revision);
  return undefined;
}

function elicitationRefusal(
  params: JsonObject,
  capabilities: JsonObject,
  revision: string,
): ClientCapabilityError | undefined {
  const mode = params['mode'] ?? 'form';
  if (mode !== 'form' && mode !== 'url') {
    return new ClientCapabilityError(
      `elicitation/create: unknown mode ${JSON.stringify(mode)} (form or url)`,
      { elicitation: {} },
    );
  }
  if (mode === 'url' && revision < URL_ELICITATION_SINCE) {
    return new ClientCapabilityError(
      `elicitation/create: URL mode needs protocol revision ${URL_ELICITATION_SINCE} or later (negotiated ${revision})`,
      { elicitation: { url: {} } },
    );
  }
  if (!elicitationModes(capabilities)[mode]) {
    return new ClientCapabilityError(
      `elicitation/create: the client did not declare elicitation.${mode} (it declared ${declaredModes(capabilities)})`,
      {
        elicitation: { [mode]: {} },
      },
    );
  }
  return undefined;
}

function declaredModes(capabilities: JsonObject): string {
  const modes = elicitationModes(capabilities);
  const names = (['form', 'url'] as const).filter((m) => modes[m]);
  return names.length === 0 ? 'no mode' : names.join(' and ');
}

function samplingRefusal(
  params: JsonObject,
  capabilities: JsonObject,
  revision: string,
): ClientCapabilityError | undefined {
  const sampling = isObject(capabilities['sampling']) ? capabilities['sampling'] : {};
  if (params['tools'] !== undefined || params['toolChoice'] !== undefined) {
    if (revision < SAMPLING_TOOLS_SINCE) {
      return new ClientCapabilityError(
        `sampling/createMessage: tools need protocol revision ${SAMPLING_TOOLS_SINCE} or later (negotiated ${revision})`,
        { sampling: { tools: {} } },
      );
    }
    if (!isObject(sampling['tools'])) {
      return new ClientCapabilityError(
        'sampling/createMessage: the client did not declare sampling.tools, so it cannot be sent tools or toolChoice',
        {
          sampling: { tools: {} },
        },
      );
    }
  }
  const include = params['includeContext'];
  // Only "none" (or leaving it out) is for every client; the other values need sampling.context.
  if (include !== undefined && include !== 'none' && !isObject(sampling['context'])) {
    return new ClientCapabilityError(
      `sampling/createMessage: the client did not declare sampling.context, so includeContext must be "none" or left out (got ${JSON.stringify(include)})`,
      { sampling: { context: {} } },
    );
  }
  return undefined;
}
