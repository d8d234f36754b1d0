// Vitest global setup. The example and bench outputs are git-ignored; many tests import or build
// them, so they are generated once, before any test file loads, from this checkout's sources (as
// `npm run gen:examples` does from the build). Unchanged files are left alone, so a run that finds
// them current writes nothing.
import { runSelf } from '../../src/cli/self-command.js';

export default async function generateOutputs(): Promise<void> {
  const lines: string[] = [];
  const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
  if ((await runSelf({ examples: true }, io)) !== 0) throw new Error(`generating the example and bench outputs failed:\n${lines.join('\n')}`);
}
