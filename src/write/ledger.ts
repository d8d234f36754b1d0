/**
 * The ledger every output folder carries (`.mcp-gen-ledger.json`): the hash of each generated file,
 * and, since format 2, how the folder was made (the command, the options that shape the output,
 * every input with its hash), so `mcp-gen check` can regenerate it in memory from the ledger alone.
 * All paths in it are posix and relative to the output folder, so the bytes do not depend on the
 * machine.
 */

export const LEDGER_FILE = '.mcp-gen-ledger.json';
/** Bumped whenever a field changes meaning; a reader refuses a format higher than it knows. */
const LEDGER_FORMAT = 2;

/** `runtime-validators` is mcp-gen's own `generated/` folder (`npm run gen:self`). */
export type RecipeCommand = 'server' | 'client' | 'docs' | 'types' | 'runtime-validators';

/** One file (or schema revision) the output was generated from. */
export interface RecipeInput {
  /** manifest, schema (a file reached by `$ref`), snapshot, spec, openapi (the description a manifest was imported from). */
  role: 'manifest' | 'schema' | 'snapshot' | 'spec' | 'openapi';
  /** Relative to the output folder. Absent for a spec named by revision or URL. */
  path?: string;
  /** A spec named by revision (`2025-11-25`): found again the same way the command found it. */
  revision?: string;
  /** A spec read from an http(s) URL. */
  url?: string;
  sha256: string;
}

/** How to make the output again. Only what changes the bytes is here; secrets (headers, env) never are. */
export interface Recipe {
  command: RecipeCommand;
  /** Command options, paths relative to the output folder. Keys sorted. */
  options: Record<string, string | boolean>;
  /** The banner's "Regenerate with" text, and whether the banner carries mcp-gen's version. */
  banner: { command: string; version: boolean };
  inputs: RecipeInput[];
}

export interface LedgerRecord {
  mcpGenVersion: string;
  recipe: Recipe;
}

export interface Ledger {
  generator: 'mcp-gen';
  ledgerFormat?: number;
  mcpGenVersion?: string;
  recipe?: Recipe;
  files: Record<string, string>;
}

function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The ledger's exact bytes: fixed key order, so the same run always writes the same text. */
export function ledgerText(files: Record<string, string>, record: LedgerRecord | undefined): string {
  const ledger: Ledger = record
    ? {
        generator: 'mcp-gen',
        ledgerFormat: LEDGER_FORMAT,
        mcpGenVersion: record.mcpGenVersion,
        recipe: {
          command: record.recipe.command,
          options: sortedKeys(record.recipe.options),
          banner: { command: record.recipe.banner.command, version: record.recipe.banner.version },
          inputs: record.recipe.inputs.map((i) => ({
            role: i.role,
            ...(i.path !== undefined ? { path: i.path } : {}),
            ...(i.revision !== undefined ? { revision: i.revision } : {}),
            ...(i.url !== undefined ? { url: i.url } : {}),
            sha256: i.sha256,
          })),
        },
        files,
      }
    : { generator: 'mcp-gen', ledgerFormat: LEDGER_FORMAT, files };
  return `${JSON.stringify(ledger, null, 2)}\n`;
}

export type ParsedLedger =
  | { kind: 'ok'; ledger: Ledger }
  | { kind: 'invalid'; reason: string };

/** Parses a ledger's text; says why when it is not one of mcp-gen's. */
function parseLedger(text: string): ParsedLedger {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', reason: `not JSON (${(error as Error).message})` };
  }
  const ledger = value as Partial<Ledger> | null;
  if (typeof ledger !== 'object' || ledger === null || ledger.generator !== 'mcp-gen' || typeof ledger.files !== 'object' || ledger.files === null) {
    return { kind: 'invalid', reason: 'not an mcp-gen ledger (no "generator": "mcp-gen" and "files")' };
  }
  if (ledger.recipe !== undefined && (typeof ledger.ledgerFormat !== 'number' || ledger.ledgerFormat <= LEDGER_FORMAT)) {
    const problem = recipeProblem(ledger.recipe);
    if (problem !== undefined) return { kind: 'invalid', reason: `its recipe ${problem}` };
  }
  return { kind: 'ok', ledger: ledger as Ledger };
}

/** What to do about a ledger that cannot be read. */
export const UNREADABLE_LEDGER_HINT =
  'restore it (e.g. from version control), or delete it to generate afresh: generated files it listed that this run does not make then stay on disk';

/**
 * A ledger on disk that says which files here are mcp-gen's, or why it cannot be trusted to: an
 * output folder with such a ledger is neither checked nor rewritten (the writer would have to guess
 * what to replace and delete).
 */
export function trustedLedger(text: string): { kind: 'ok'; ledger: Ledger } | { kind: 'refused'; reason: string; hint?: string } {
  const parsed = parseLedger(text);
  if (parsed.kind === 'invalid') return { kind: 'refused', reason: `unreadable ${LEDGER_FILE}: ${parsed.reason}`, hint: UNREADABLE_LEDGER_HINT };
  const { ledgerFormat, mcpGenVersion } = parsed.ledger;
  if (typeof ledgerFormat === 'number' && ledgerFormat > LEDGER_FORMAT) {
    const reason = `${LEDGER_FILE} has format ${ledgerFormat}, written by a newer mcp-gen (${mcpGenVersion ?? 'unknown version'}); this one reads up to format ${LEDGER_FORMAT}: upgrade mcp-gen`;
    return { kind: 'refused', reason };
  }
  return parsed;
}

const COMMANDS: readonly string[] = ['server', 'client', 'docs', 'types', 'runtime-validators'];
const ROLES: readonly string[] = ['manifest', 'schema', 'snapshot', 'spec', 'openapi'];

/** Why a recipe of this format cannot be used, or undefined: a hand-edited ledger must not crash check. */
function recipeProblem(recipe: unknown): string | undefined {
  const r = recipe as Partial<Recipe> | null;
  if (typeof r !== 'object' || r === null) return 'is not an object';
  if (typeof r.command !== 'string' || !COMMANDS.includes(r.command)) return `has an unknown command ${JSON.stringify(r.command)}`;
  if (typeof r.options !== 'object' || r.options === null || Array.isArray(r.options)) return 'has no options object';
  if (!Object.values(r.options).every((v) => typeof v === 'string' || typeof v === 'boolean')) return 'has an option that is neither text nor a flag';
  if (typeof r.banner !== 'object' || r.banner === null || typeof r.banner.command !== 'string' || typeof r.banner.version !== 'boolean') {
    return 'has no banner { command, version }';
  }
  if (!Array.isArray(r.inputs)) return 'has no inputs list';
  for (const input of r.inputs as unknown[]) {
    const i = input as Partial<RecipeInput> | null;
    const optionalText = (v: unknown): boolean => v === undefined || typeof v === 'string';
    if (typeof i !== 'object' || i === null || typeof i.role !== 'string' || !ROLES.includes(i.role) || typeof i.sha256 !== 'string' || !optionalText(i.path) || !optionalText(i.revision) || !optionalText(i.url)) {
      return 'has an input that is not { role, path | revision | url, sha256 }';
    }
  }
  return undefined;
}
