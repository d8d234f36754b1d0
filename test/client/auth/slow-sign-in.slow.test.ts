/**
 * A person who takes longer to sign in than `server/discover`'s own timeout: the handshake waits
 * for them instead of failing. It waits that timeout out in real time, so it runs in the slow tier
 * (the `*.slow.test.ts` convention); the rest of the sign-in flow is in oauth-flow.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openSession } from '../../../src/runtime/client/index.js';
import { AuthFixture } from './fixture.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
let fixture: AuthFixture | undefined;

afterEach(async () => {
  await fixture?.stop();
  fixture = undefined;
});

describe('a slow sign-in', () => {
  it('server/discover waits for a person who takes longer than its 10 s timeout to sign in', async () => {
    const f = (fixture = await new AuthFixture({}).start());
    const slowBrowser = async (url: URL): Promise<string> => {
      await new Promise((resolve) => setTimeout(resolve, 11_000));
      return f.browser(url);
    };
    const session = await openSession({ url: f.url, protocolVersions: ['2026-07-28'], auth: { redirectUrl: REDIRECT, openAuthorizationUrl: slowBrowser } });
    expect(session.stateless).toBe(true);
    await session.close();
    expect(f.to('/authorize')).toHaveLength(1);
  }, 30_000);
});
