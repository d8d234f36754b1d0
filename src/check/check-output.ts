import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Console } from '../pipeline/console.js';
import { pathInOut } from '../pipeline/ledger-inputs.js';
import { displayPath } from '../pipeline/paths.js';
import { formatDiagnostic, InputError } from '../load/diagnostics.js';
import { LEDGER_FILE, trustedLedger, type Recipe } from '../write/ledger.js';
import { changedUnnamedInputs, compareInputs } from './inputs.js';
import { splitCompiledOutput } from './compiled-output.js';
import { fixCommand } from './fix-command.js';
import { checkTarget, needsNetwork, targetFromRecipe, type Target } from './target.js';

/** What `mcp-gen check` found for one output folder (the `--json` shape of each entry). */
export interface OutputResult {
  /** The output folder, relative to the working directory. */
  out: string;
  /** current: nothing to do; stale: regenerate with `fix`; error: cannot be checked (exit 2). */
  status: 'current' | 'stale' | 'error';
  stale: string[];
  missing: string[];
  extra: string[];
  /** tsc's output beside a generated `x.ts` (`x.js`, `x.d.ts`, their maps): not drift, see compiled-output.ts. */
  compiled: string[];
  changedInputs: string[];
  vanishedInputs: string[];
  error?: string;
  fix?: string;
}

function result(out: string): OutputResult {
  return { out: displayPath(out), status: 'current', stale: [], missing: [], extra: [], compiled: [], changedInputs: [], vanishedInputs: [] };
}

/** Warnings of the in-memory run are not news here: the regeneration command prints them. */
const quiet: Console = { out: () => {}, err: () => {} };

/** An old ledger has no recipe; its generated files' banners still say which command made them. */
async function bannerHint(out: string, files: readonly string[]): Promise<string | undefined> {
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(join(out, ...file.split('/')), 'utf8');
    } catch {
      continue;
    }
    const found = /Regenerate with: (.*?)(?: \*\/| -->)?$/m.exec(text.slice(0, text.indexOf('\n') >>> 0));
    if (found) return found[1];
  }
  return undefined;
}

/** Reads the ledger of `out` and returns the target it records, or the reason it cannot be checked. */
async function targetOfLedger(out: string, res: OutputResult): Promise<{ target: Target; recipe: Recipe } | undefined> {
  const fail = (message: string): undefined => {
    res.status = 'error';
    res.error = message;
    return undefined;
  };
  let text: string;
  try {
    text = await readFile(join(out, LEDGER_FILE), 'utf8');
  } catch (error) {
    return fail(`cannot read ${LEDGER_FILE}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const trusted = trustedLedger(text);
  if (trusted.kind === 'refused') return fail(trusted.reason);
  const ledger = trusted.ledger;
  if (ledger.recipe === undefined || typeof ledger.recipe !== 'object') {
    const hint = await bannerHint(out, Object.keys(ledger.files).sort());
    const command = hint === undefined ? 'the command that made it' : hint.startsWith('mcp-gen ') ? `${hint} -o ${displayPath(out)}` : hint;
    return fail(`${LEDGER_FILE} does not record how this folder was made (written by an older mcp-gen); regenerate once with ${command}`);
  }
  return { target: targetFromRecipe(out, ledger.recipe), recipe: ledger.recipe };
}

/**
 * Checks one output folder: the inputs its ledger records against their hashes, then the folder
 * against a regeneration in memory (from `target` when given, e.g. a config file's, else from the
 * ledger). Writes nothing.
 */
export async function checkOutput(out: string, options: { live: boolean; target?: Target; configDir?: string }): Promise<OutputResult> {
  const res = result(out);
  const recorded = await targetOfLedger(out, res);
  const target = options.target ?? recorded?.target;
  // A config target is regenerated from the config even when its ledger is missing or old.
  if (options.target && res.status === 'error' && !res.error?.includes('newer mcp-gen')) {
    res.status = 'current';
    delete res.error;
  }
  if (res.status === 'error' || !target) return res;
  res.fix = fixCommand(target, options.configDir);
  if (recorded) {
    const changes = await compareInputs(out, recorded.recipe.inputs);
    const shown = (p: string): string => displayPath(pathInOut(out, p));
    res.changedInputs.push(...changes.changed.map(shown));
    res.vanishedInputs.push(...changes.vanished.map(shown));
    if (changes.vanished.length > 0) {
      res.status = 'error';
      res.error = `input${changes.vanished.length === 1 ? '' : 's'} vanished: ${res.vanishedInputs.join(', ')}; restore ${changes.vanished.length === 1 ? 'it' : 'them'}, or regenerate from what replaced ${changes.vanished.length === 1 ? 'it' : 'them'}`;
      return res;
    }
  }
  if (needsNetwork(target) && !options.live && target.command === 'types') {
    res.status = 'error';
    res.error = `made from ${target.job.spec}; checking it downloads the schema: pass --live`;
    return res;
  }
  try {
    const { report, recipe } = await checkTarget(target, options.live, quiet);
    res.stale.push(...report.stale);
    res.missing.push(...report.missing);
    const { compiled, stray } = splitCompiledOutput(out, report.extra, report.missing);
    res.extra.push(...stray);
    res.compiled.push(...compiled);
    if (recorded) res.changedInputs.push(...changedUnnamedInputs(recorded.recipe.inputs, recipe.inputs));
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    res.status = 'error';
    res.error = error.diagnostics.map(formatDiagnostic).join('; ');
    return res;
  }
  const drift = res.stale.length + res.missing.length + res.extra.length + res.changedInputs.length;
  res.status = drift > 0 ? 'stale' : 'current';
  return res;
}
