/**
 * The `auth` section's rules a JSON Schema cannot say well: signature algorithms a resource server
 * may trust, and `scopes` that mean nothing without an `auth` section.
 */
import type { Diagnostic } from './diagnostics.js';
import { isSchemaObject as isObject } from '../schema/keywords.js';
import { diagnosticAt, joinPointer } from './yaml-positions.js';
import type { SourceDocument } from './yaml-positions.js';

/** Asymmetric JWS algorithms (RFC 7518, RFC 8037): a resource server needs only public keys for them. */
const JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

const SECTIONS = ['tools', 'resources', 'resourceTemplates', 'prompts'] as const;

export function checkAuthRules(doc: SourceDocument): Diagnostic[] {
  const raw = doc.value as { [key: string]: unknown };
  const problems: Diagnostic[] = [];
  if (raw['auth'] === undefined) {
    // Per-entry scopes would be silently ignored: say so instead.
    for (const section of SECTIONS) {
      const entries = raw[section];
      if (!Array.isArray(entries)) continue;
      entries.forEach((entry, index) => {
        if (isObject(entry) && entry['scopes'] !== undefined) {
          problems.push(diagnosticAt(doc, joinPointer(`/${section}`, index, 'scopes'), 'scopes need an `auth` section', 'add a top-level `auth` section (resource, authorizationServers, verifier), or remove `scopes`'));
        }
      });
    }
    return problems;
  }
  const auth = raw['auth'];
  if (!isObject(auth)) return problems;
  // The schema's pattern catches most; this catches what only a URL parser sees (a bad port, say).
  const resource = auth['resource'];
  if (typeof resource === 'string' && /^https?:\/\/[^\s#]+$/.test(resource) && !URL.canParse(resource)) {
    problems.push(diagnosticAt(doc, '/auth/resource', `'${resource}' is not a valid URL`));
  }
  const verifier = auth['verifier'];
  const jwt = isObject(verifier) ? verifier['jwt'] : undefined;
  if (isObject(jwt) && Array.isArray(jwt['algorithms'])) {
    jwt['algorithms'].forEach((algorithm, index) => {
      if (typeof algorithm !== 'string') return;
      const at = joinPointer('/auth/verifier/jwt/algorithms', index);
      const trusted = `use asymmetric algorithms only: ${JWT_ALGORITHMS.join(', ')}`;
      if (algorithm.toLowerCase() === 'none') problems.push(diagnosticAt(doc, at, "'none' would accept unsigned tokens", trusted));
      else if (/^HS\d+$/i.test(algorithm)) {
        problems.push(diagnosticAt(doc, at, `'${algorithm}' is a shared-secret algorithm: anyone holding the key a resource server checks with could mint tokens`, trusted));
      } else if (!JWT_ALGORITHMS.includes(algorithm)) problems.push(diagnosticAt(doc, at, `'${algorithm}' is not a known JWS signature algorithm`, trusted));
    });
  }
  return problems;
}

/**
 * `offline_access` asks for refresh tokens, which are no resource's requirement: the specification
 * says a protected resource should not name it in its metadata or its challenges.
 */
export function authWarnings(doc: SourceDocument): Diagnostic[] {
  const auth = (doc.value as { [key: string]: unknown })['auth'];
  if (!isObject(auth)) return [];
  const warnings: Diagnostic[] = [];
  for (const field of ['scopesSupported', 'scopes'] as const) {
    const scopes = auth[field];
    if (!Array.isArray(scopes)) continue;
    scopes.forEach((scope, index) => {
      if (scope === 'offline_access') {
        warnings.push(diagnosticAt(doc, joinPointer(`/auth/${field}`, index), "'offline_access' is not a scope of this resource", 'clients ask for refresh tokens themselves; leave it out'));
      }
    });
  }
  return warnings;
}
