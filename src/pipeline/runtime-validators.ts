/**
 * The runtime's envelope validators (`generated/runtime/`), which mcp-gen generates for itself:
 * planned from two spec revisions, with the ledger record of how they were made. regenerate-self
 * writes them; `mcp-gen check`, run in mcp-gen's own repository, compares them.
 */
import { planRuntimeValidators, planStatelessValidators } from '../emit/validators/runtime-validators.js';
import { resolveSpec } from '../load/spec.js';
import { STATELESS_REVISION } from '../model/service.js';
import { sha256Hex } from '../schema/sha256.js';
import type { LedgerRecord, Recipe } from '../write/ledger.js';
import type { PlannedFile } from '../write/planned-file.js';
import { writeOutput, type WriteReport } from '../write/writer.js';
import { defaultSpecDir, toolVersion } from './paths.js';

/** The revision the runtime's envelope validators are compiled from: the newest stateful one. */
const RUNTIME_REVISION = '2025-11-25';

/** The banner and ledger command of everything regenerate-self writes. */
const SELF_BANNER = { command: 'npm run gen:self', version: false };

/** The runtime's envelope validators (`generated/runtime/`), and the ledger record of how they were made. */
export async function runtimeValidatorFiles(specDir: string): Promise<{ files: PlannedFile[]; record: LedgerRecord }> {
  const runtimeSpec = await resolveSpec(RUNTIME_REVISION, { specDir });
  const statelessSpec = await resolveSpec(STATELESS_REVISION, { specDir });
  // The planned paths already start with runtime/.
  const files = [...planRuntimeValidators({ $defs: runtimeSpec.defs }), ...planStatelessValidators({ $defs: statelessSpec.defs })];
  const inputs = [runtimeSpec, statelessSpec].map((spec) => ({ role: 'spec' as const, revision: spec.revision, sha256: sha256Hex(JSON.stringify(spec.defs)) }));
  const recipe: Recipe = { command: 'runtime-validators', options: {}, banner: SELF_BANNER, inputs };
  return { files, record: { mcpGenVersion: toolVersion(), recipe } };
}

/** Writes (or, with `check`, compares) the validators in `out` (the `generated/` folder). */
export async function writeRuntimeValidators(out: string, specDir: string, check: boolean): Promise<{ report: WriteReport; record: LedgerRecord }> {
  const { files, record } = await runtimeValidatorFiles(specDir);
  return { report: await writeOutput(out, files, { banner: { command: SELF_BANNER.command }, check, record, ownsFolder: true }), record };
}

/** `generated/` compared with a regeneration in memory, for `mcp-gen check` run in mcp-gen's own repository. */
export function checkRuntimeValidators(out: string): Promise<{ report: WriteReport; record: LedgerRecord }> {
  return writeRuntimeValidators(out, defaultSpecDir(), true);
}
