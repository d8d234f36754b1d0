/// <reference types="node" />
/**
 * Opaque tokens checked with the authorization server's introspection endpoint (RFC 7662): the
 * resource server authenticates as a client (HTTP Basic), an `active: false` answer is an invalid
 * token, and an answer naming audiences must name this resource (compared as audience.ts says).
 */
import type { AuthInfo } from '../api.js';
import { audienceCheck, type AudienceCheck } from './audience.js';
import { authInfoOf } from './claims.js';
import { InvalidToken, type TokenVerifier } from './settings.js';

export interface IntrospectionSettings {
  endpoint: string;
  clientId: string;
  clientSecret: string;
  /** The audience an answer's `aud` must include, when it has one. */
  audience: string;
}

export class IntrospectionVerifier implements TokenVerifier {
  private readonly settings: IntrospectionSettings;
  private readonly authorization: string;
  private readonly audience: AudienceCheck;

  constructor(settings: IntrospectionSettings) {
    this.settings = settings;
    this.audience = audienceCheck(settings.audience);
    // RFC 6749 2.3.1: both parts form-encoded before Basic encoding.
    const pair = `${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`;
    this.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  }

  async verify(token: string): Promise<AuthInfo> {
    const response = await fetch(this.settings.endpoint, {
      method: 'POST',
      headers: {
        authorization: this.authorization,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) throw new Error(`the introspection endpoint answered ${response.status}`);
    const answer = (await response.json()) as { [key: string]: unknown };
    if (answer['active'] !== true) throw new InvalidToken('the token is not active');
    if (answer['aud'] !== undefined && !this.audience(answer['aud']))
      throw new InvalidToken('the token is not valid for this resource');
    if (typeof answer['exp'] === 'number' && answer['exp'] * 1000 <= Date.now())
      throw new InvalidToken('the token has expired');
    const info = authInfoOf(answer, token);
    if (info === undefined)
      throw new InvalidToken('the token names neither a subject nor a client');
    return info;
  }
}
