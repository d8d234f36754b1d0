/** Why signing in cannot go on, in the protocol's terms (which document, which check). */
export class AuthorizationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AuthorizationError';
  }
}
