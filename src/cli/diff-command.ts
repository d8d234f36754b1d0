import { diffSides, mixedFamilies } from '../diff/diff.js';
import { classifySide, familyOf, loadSide, LiveSideError, type LoadedSide, type SideOptions } from '../diff/load-side.js';
import { renderHuman, wantsColour } from '../diff/render-human.js';
import { renderJson } from '../diff/render-json.js';
import { flagPairs } from '../pipeline/flag-pairs.js';
import { EXIT_OK, EXIT_UNREACHABLE, type Console } from './output.js';

export interface DiffOptions {
  json?: boolean;
  failOn: 'breaking' | 'any' | 'none';
  header?: string[];
  env?: string[];
  specDir?: string;
  allowOutsideRefs?: boolean;
}

/** Where coloured output may go: the console without the terminal sink (the renderer escapes input text itself). */
export interface DiffTerminal {
  raw: Console;
  stdoutIsTty: boolean;
}

/** Exit codes: 0 nothing trips --fail-on, 1 something does, 2 bad input, 3 a live side or a schema URL could not be reached. */
const EXIT_FINDINGS = 1;
export { EXIT_UNREACHABLE } from './output.js';

export async function runDiff(oldArg: string, newArg: string, options: DiffOptions, io: Console, terminal: DiffTerminal): Promise<number> {
  const headers = flagPairs(options.header, ':', '--header');
  const env = flagPairs(options.env, '=', '--env');
  const sideOptions: SideOptions = {
    ...(headers ? { headers } : {}),
    ...(env ? { env } : {}),
    ...(options.specDir !== undefined ? { specDir: options.specDir } : {}),
    allowOutsideRefs: options.allowOutsideRefs === true,
  };
  // Both sides are classified before either is loaded: a mix is refused without connecting anywhere.
  const oldInfo = await classifySide(oldArg, options.specDir);
  const newInfo = await classifySide(newArg, options.specDir);
  if (familyOf(oldInfo.kind) !== familyOf(newInfo.kind)) throw mixedFamilies({ info: oldInfo }, { info: newInfo });

  const warnings: string[] = [];
  let sides: [LoadedSide, LoadedSide];
  try {
    sides = [await loadSide(oldInfo, sideOptions, (w) => warnings.push(w)), await loadSide(newInfo, sideOptions, (w) => warnings.push(w))];
  } catch (error) {
    if (!(error instanceof LiveSideError)) throw error;
    io.err(`error: ${error.side}: cannot introspect the server: ${error.reason}`);
    return EXIT_UNREACHABLE;
  }
  for (const warning of warnings) io.err(`warning: ${warning}`);

  const report = diffSides(...sides);
  if (options.json) {
    io.out(renderJson(report));
  } else {
    const colour = wantsColour(terminal.stdoutIsTty, process.env);
    for (const line of renderHuman(report, colour)) (colour ? terminal.raw : io).out(line);
  }
  const trips = options.failOn === 'any' ? report.summary.total > 0 : options.failOn === 'breaking' ? report.summary.breaking > 0 : false;
  return trips ? EXIT_FINDINGS : EXIT_OK;
}
