/**
 * The names an import gives: a short server name from the API's title, tool names in one style
 * (snake_case, whatever mix of `/`, `-`, `.` and camelCase the operationIds use), and environment
 * variables named the way a user would (`PETSTORE_API_KEY`, not `API_KEY_API_KEY`).
 */

/** Words that say what any description is, not which API it describes. */
const TITLE_FILLER = new Set([
  'a', 'an', 'the', 'official', 'openapi', 'open', 'swagger', 'spec', 'specs', 'specification', 'api', 'apis',
  'rest', 'restful', 'http', 'https', 'json', 'web', 'service', 'services', 'description', 'definition',
  'document', 'documentation', 'extension', 'reference', 'public', 'server', 'sdk', 'for', 'of', 'and',
]);
const MAX_SERVER_WORDS = 3;

/**
 * `GitHub's official OpenAPI spec + Octokit extension` → `github`, `Swagger Petstore - OpenAPI 3.0`
 * → `petstore`: the title up to its first separator, without filler words, versions or possessives,
 * in kebab-case; the whole title in kebab-case when nothing else is left.
 */
export function serverName(title: string): string {
  const head = title.split(/\s+[-+–—|]\s+|[:(\[]/)[0] ?? title;
  const words = (head.toLowerCase().replace(/['’]s\b/g, '').match(/[a-z0-9]+/g) ?? [])
    .filter((word) => !TITLE_FILLER.has(word) && !/^v?\d+$/.test(word))
    .slice(0, MAX_SERVER_WORDS);
  const name = words.join('-') || kebab(title);
  return name.slice(0, 64).replace(/-+$/, '') || 'api';
}

function kebab(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

const MAX_TOOL_NAME = 64;

/**
 * `repos/list-for-org` → `repos_list_for_org`, `findPetsByStatus` → `find_pets_by_status`,
 * `getHTTPInfo` → `get_http_info`; at most 64 characters, cut at word boundaries.
 */
export function toolName(raw: string): string {
  const snake = raw
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (snake.length <= MAX_TOOL_NAME) return snake;
  // Long names differ at both ends: the group and verb in front (`actions_get_…`), the object at
  // the end (`…_for_organization`, `…_for_repository`). Keep those, drop words from the middle.
  const words = snake.split('_');
  const front = words.slice(0, 2);
  const tail: string[] = [];
  let length = front.join('_').length;
  for (let i = words.length - 1; i >= 2 && length + 1 + words[i]!.length <= MAX_TOOL_NAME; i -= 1) {
    tail.unshift(words[i]!);
    length += 1 + words[i]!.length;
  }
  return tail.length === 0 ? snake.slice(0, MAX_TOOL_NAME) : [...front, ...tail].join('_');
}

/** `api_key` → `API_KEY`, `petstore-auth` → `PETSTORE_AUTH`; never starts with a digit. */
export function envName(name: string): string {
  const upper = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').toUpperCase();
  return /^[A-Z_]/.test(upper) ? upper : `_${upper}`;
}

/** Words of a scheme name that only repeat what kind of credential it is. */
const SCHEME_FILLER = new Set(['API', 'KEY', 'APIKEY', 'AUTH', 'AUTHORIZATION', 'BEARER', 'TOKEN', 'BASIC', 'OAUTH', 'OAUTH2', 'HTTP', 'SECURITY', 'SCHEME', 'JWT', 'ACCESS', 'CREDENTIALS', 'OPEN', 'ID', 'CONNECT', 'OPENID']);

/**
 * The prefix of a credential's environment variables: the server's name, then whatever the
 * scheme's name says beyond the kind of credential (`petstore` + `api_key` → `PETSTORE`,
 * `acme` + `adminKey` → `ACME_ADMIN`). The kind is added by the caller (`_API_KEY`, `_TOKEN`).
 */
export function credentialPrefix(server: string, scheme: string): string {
  const serverWords = envName(server).split('_').filter(Boolean);
  const own = envName(scheme).split('_').filter((word) => word !== '' && !SCHEME_FILLER.has(word) && !serverWords.includes(word));
  return [...serverWords, ...own].join('_') || envName(scheme);
}
