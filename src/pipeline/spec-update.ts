/**
 * `--spec` for `server` and `client`: a newer schema for a revision the runtime already speaks (a
 * pull request's draft, an errata). What comes from data is made again from it: the runtime's
 * envelope validators (server) and the protocol types (client). What comes from code, the
 * runtime's method table and handlers, cannot follow: a schema that adds methods or changes what
 * one means is refused, with the list of what the runtime would lack, taken from `diff`'s findings.
 */
import { resolve } from 'node:path';
import { compareRevisions } from '../diff/compare-revisions.js';
import type { Finding } from '../diff/finding.js';
import { emitProtocolTypes } from '../emit/types/index.js';
import { planRuntimeValidators, planStatelessValidators } from '../emit/validators/runtime-validators.js';
import { InputError, unplacedDiagnostic } from '../load/diagnostics.js';
import { isKnownRevision, resolveSpec, specDigest, type LoadedSpec } from '../load/spec.js';
import { buildProtocolModel, type ProtocolModel } from '../model/protocol.js';
import { STATELESS_REVISION } from '../model/service.js';
import type { PlannedFile } from '../write/planned-file.js';
import { renderFile } from '../write/render.js';
import type { Recipe } from '../write/ledger.js';
import { pathFromOut, specOption } from './ledger-inputs.js';
import { defaultSpecDir } from './paths.js';

const URL_INPUT = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The revisions the runtime's data is compiled from: its envelope validators, the client's protocol types. */
export const STATEFUL_DATA_REVISION = '2025-11-25';
export const STATELESS_DATA_REVISION = STATELESS_REVISION;

/** The label of a schema that states no version and whose path names none, until its shape decides. */
const UNNAMED = '(unnamed)';

/** Which of the two compiled revisions a schema stands in for; `none`: an older one nothing is compiled from. */
export type DataSlot = 'stateful' | 'stateless' | 'none';

export interface SpecUpdate {
  spec: LoadedSpec;
  model: ProtocolModel;
  slot: DataSlot;
  /** False when the schema is the very one mcp-gen compiled its data from: nothing to replace. */
  changed: boolean;
}

/**
 * Loads `--spec` and checks it against mcp-gen's own schema of the same revision. Refused (exit 2)
 * when the revision is one the runtime does not negotiate, or when methods were added, removed or
 * changed; constraints and other definition changes are accepted. `readFiles` (--watch) collects
 * the schema file read, also when it cannot be read or is refused.
 */
export async function loadSpecUpdate(input: string, specDir: string | undefined, readFiles?: Set<string>): Promise<SpecUpdate> {
  // A path (a revision name has no dot or slash): watched before it is read, so a missing or broken one is too.
  if (readFiles !== undefined && !URL_INPUT.test(input) && /[./\\]/.test(input)) readFiles.add(resolve(input));
  const loaded = await resolveSpec(input, { fallbackRevision: UNNAMED, ...(specDir !== undefined ? { specDir } : {}) });
  // A revision found in --spec-dir is a file too.
  if (readFiles !== undefined && !URL_INPUT.test(loaded.source)) readFiles.add(resolve(loaded.source));
  const shape: Exclude<DataSlot, 'none'> = Object.hasOwn(loaded.defs, 'InitializeRequest') ? 'stateful' : 'stateless';
  // A schema nothing names (a pull request's file) updates the era its shape belongs to.
  const spec = loaded.revision === UNNAMED ? { ...loaded, revision: shape === 'stateful' ? STATEFUL_DATA_REVISION : STATELESS_DATA_REVISION } : loaded;
  const model = buildProtocolModel(spec);
  const shipped = async (revision: string): Promise<LoadedSpec> => resolveSpec(revision, { specDir: defaultSpecDir() });
  if (!isKnownRevision(spec.revision)) {
    const nearest = shape === 'stateful' ? STATEFUL_DATA_REVISION : STATELESS_DATA_REVISION;
    const lacks = runtimeLacks(compareRevisions(buildProtocolModel(await shipped(nearest)), model));
    throw refusal(spec, `revision ${spec.revision} is not one the runtime negotiates (compared with ${nearest})`, lacks);
  }
  const base = await shipped(spec.revision);
  const lacks = runtimeLacks(compareRevisions(buildProtocolModel(base), model));
  if (lacks.length > 0) throw refusal(spec, `this schema for ${spec.revision} changes methods the runtime implements`, lacks);
  const slot: DataSlot =
    spec.revision === STATEFUL_DATA_REVISION ? 'stateful'
    // The draft is the stateless era's working copy: the runtime has no validators of its own for it.
    : spec.revision === STATELESS_DATA_REVISION || (spec.revision === 'draft' && shape === 'stateless') ? 'stateless'
    : 'none';
  const compiledFrom = slot === 'stateful' ? STATEFUL_DATA_REVISION : STATELESS_DATA_REVISION;
  // Usually the revision just compared with: loaded once.
  const compiled = compiledFrom === spec.revision ? base : await shipped(compiledFrom);
  const changed = slot !== 'none' && specDigest(spec) !== specDigest(compiled);
  return { spec, model, slot, changed };
}

/** What the runtime would lack, one line a method finding: the methods it serves and sends come from code. */
export function runtimeLacks(findings: readonly Finding[]): string[] {
  const lines: string[] = [];
  for (const f of findings) {
    const m = /^(request|notification) (\S+) \((client|server) → (client|server)\)$/.exec(f.item);
    if (!m) continue;
    const [, kind, method, sender, receiver] = m;
    const what = `${kind === 'request' ? 'request method' : 'notification'} \`${method}\` (${sender} → ${receiver})`;
    if (f.kind === 'added') lines.push(`new ${what}: ${sender === 'client' ? 'not served' : 'never sent'}`);
    else if (f.kind === 'removed') lines.push(`${what} removed: the runtime still implements it`);
    else lines.push(`${what}: ${f.message}: the runtime keeps the old meaning`);
  }
  return lines;
}

function refusal(spec: LoadedSpec, headline: string, lacks: readonly string[]): InputError {
  const hint = 'the runtime would lack what is listed: generate with a revision it speaks, or wait for an mcp-gen release that implements it (docs/spec-updates.md)';
  return new InputError([
    unplacedDiagnostic(spec.source, '', headline, lacks.length === 0 ? hint : undefined),
    ...lacks.map((line, i) => unplacedDiagnostic(spec.source, '', line, i === lacks.length - 1 ? hint : undefined)),
  ]);
}

/** The banner mcp-gen's own copies carry; the writer puts the output's own banner in its place. */
const GENERATED_BANNER = { command: 'npm run gen:self' };

/**
 * The server runtime's envelope validators compiled from the update, keyed by file name as
 * readRuntimeSources() keys them; empty when nothing changed.
 */
export async function updatedValidatorSources(update: SpecUpdate): Promise<Record<string, string>> {
  if (!update.changed) return {};
  const schema = { $defs: update.spec.defs };
  let planned: PlannedFile[];
  try {
    planned = update.slot === 'stateful' ? planRuntimeValidators(schema) : planStatelessValidators(schema);
  } catch (error) {
    throw new InputError([unplacedDiagnostic(update.spec.source, '', `the runtime's validators cannot be compiled from this schema: ${(error as Error).message}`)]);
  }
  const sources: Record<string, string> = {};
  for (const file of planned) sources[file.path.replace(/^runtime\//, '')] = await renderFile(file, GENERATED_BANNER);
  return sources;
}

/** The client's protocol types for the update's slot, as `generated/protocol/<revision>/types.ts` would read; undefined when nothing changed. */
export async function updatedProtocolTypes(update: SpecUpdate): Promise<string | undefined> {
  if (!update.changed) return undefined;
  // A draft standing in for 2026-07-28 speaks as 2026-07-28: that is the version the client negotiates.
  const model = update.slot === 'stateless' ? { ...update.model, revision: STATELESS_DATA_REVISION, protocolVersion: STATELESS_DATA_REVISION } : update.model;
  const content = await emitProtocolTypes(model, { docs: 'link' });
  return renderFile({ path: 'types.ts', content, owner: 'generated', format: 'typescript' }, GENERATED_BANNER);
}

/** `--spec` and `--spec-dir` as a server's or client's ledger records them (types.ts's rules). */
export function specRecipe(out: string, input: string, specDir: string | undefined, update: SpecUpdate): Recipe['options'] {
  const options: Recipe['options'] = { spec: specOption(out, input, update.spec) };
  if (specDir !== undefined) options['specDir'] = pathFromOut(out, specDir);
  return options;
}

/** Said after a run whose schema is an older revision's: accepted, but nothing in the output is compiled from it. */
export function noUpdatedData(update: SpecUpdate): string {
  return `--spec ${update.spec.revision}: the runtime checks messages with the ${STATEFUL_DATA_REVISION} and ${STATELESS_DATA_REVISION} schemas; nothing in the output is compiled from ${update.spec.revision}'s (the ledger records its digest)`;
}
