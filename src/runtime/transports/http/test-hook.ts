/**
 * Test-only: the chaos suite (test/chaos) sets `watch` to be handed every HTTP endpoint's session
 * table made afterwards, so it can count what a server still holds once its clients are gone
 * (sessions, streams, calls, tasks, listeners); `watchLegacy` gets each legacy HTTP+SSE session
 * table (legacy-sse.ts) the same way. Servers never set them: unset, they cost one property read
 * per endpoint created and nothing per request.
 */
export const testHook: {
  watch?: ((sessions: object) => void) | undefined;
  watchLegacy?: ((sessions: ReadonlyMap<string, unknown>) => void) | undefined;
} = {};
