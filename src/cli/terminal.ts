/**
 * How the CLI's lines reach the user, by mode: on a terminal, problems are coloured and long work
 * shows a spinner; piped (or with NO_COLOR / --no-color) the same lines are plain and no frame is
 * ever drawn; `--quiet` keeps only errors; `--json` keeps stdout for one JSON document, which
 * main() prints from what the command reported.
 */
import { terminalText } from '../printer/escape.js';
import type { Console } from './output.js';

export interface OutputMode {
  json: boolean;
  quiet: boolean;
  colour: boolean;
  /** A spinner may be drawn on stderr (a terminal, not quiet, not JSON). */
  progress: boolean;
}

/** The mode a run gets from its flags and where stdout/stderr go. */
export function outputMode(flags: { json?: boolean; quiet?: boolean; color?: boolean }, tty: { stdout: boolean; stderr: boolean }, env: NodeJS.ProcessEnv): OutputMode {
  const json = flags.json === true;
  const quiet = flags.quiet === true;
  const noColour = flags.color === false || (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') || env['TERM'] === 'dumb';
  return { json, quiet, colour: !noColour && tty.stderr, progress: tty.stderr && !quiet && !json };
}

const PAINT: readonly [RegExp, string][] = [
  [/^error:/, '\u001b[1;31m'],
  [/^warning:/, '\u001b[33m'],
  [/^(?:note|kept):/, '\u001b[36m'],
  [/^(?:stale|missing|extra):/, '\u001b[33m'],
];

/** The line's leading word coloured, when it is one of the known prefixes. */
export function paint(line: string): string {
  for (const [pattern, code] of PAINT) {
    const match = pattern.exec(line);
    if (match) return `${code}${match[0]}\u001b[0m${line.slice(match[0].length)}`;
  }
  return line;
}

/** What a command reports for `--json` (write commands: where they wrote and what). */
export type JsonResult = Record<string, unknown>;

/**
 * The raw `io` as the mode wants it, every line through the terminal sink first (so colour is
 * added after input text was made harmless, never escaped away). In JSON mode stdout lines are
 * kept back in `held` (main prints one document instead) unless the command prints its own JSON.
 */
export function modeConsole(io: Console, mode: OutputMode, ownJson: boolean, held: string[], results: JsonResult[]): Console {
  return {
    out: (raw) => {
      const line = terminalText(raw);
      if (mode.json && !ownJson) held.push(line);
      else if (!mode.quiet || (mode.json && ownJson)) io.out(line);
    },
    err: (raw) => {
      const line = terminalText(raw);
      if (mode.quiet && !line.startsWith('error')) return;
      io.err(mode.colour ? paint(line) : line);
    },
    result: (data) => results.push(data),
    progress: (label) => (mode.progress ? spinner(label) : () => {}),
  };
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A spinner on stderr until the returned function is called, which clears its line. */
function spinner(label: string): () => void {
  let frame = 0;
  const draw = (): void => {
    process.stderr.write(`\r${FRAMES[frame++ % FRAMES.length]} ${label}`);
  };
  draw();
  const timer = setInterval(draw, 80);
  timer.unref();
  return () => {
    clearInterval(timer);
    process.stderr.write('\r\u001b[2K');
  };
}
