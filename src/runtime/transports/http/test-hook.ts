/**
 * Test-only: the chaos suite (test/chaos) sets `watch` to be handed every HTTP endpoint's session
 * table made afterwards, so it can count what a server still holds once its clients are gone
 * (sessions, streams, calls, tasks, listeners). Servers never set it: unset, it costs one property
 * read per endpoint created and nothing per request.
 */
export const testHook: { watch?: ((sessions: object) => void) | undefined } = {};
