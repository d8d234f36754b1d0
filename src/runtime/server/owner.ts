import type { AuthInfo } from '../api.js';

/** Who sessions and tasks opened with `auth` belong to: its `owner`, or (a hook's answer without one) its subject. */
export function ownerOf(auth: AuthInfo): string {
  return auth.owner ?? `subject:${auth.subject}`;
}
