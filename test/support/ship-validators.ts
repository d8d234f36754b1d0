import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A build outside its project, made whole as a deploy of the build folder alone must be: tsc does
 * not copy the tools' validators written as JavaScript (module-layout.ts), which the project's
 * package.json `imports` finds under `generated/`; the build gets them and that mapping beside it.
 */
export function shipValidators(project: string, outDir: string): void {
  const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { imports?: Record<string, string> };
  if (manifest.imports?.['#generated/validators/*'] === undefined) return;
  const from = join(project, 'generated');
  for (const name of ['validator-helpers.js', 'validator-defs.js', 'validators']) {
    if (existsSync(join(from, name))) cpSync(join(from, name), join(outDir, 'generated', name), { recursive: true, filter: (path) => !path.endsWith('.d.ts') });
  }
  const target = join(outDir, 'package.json');
  const existing = existsSync(target) ? (JSON.parse(readFileSync(target, 'utf8')) as Record<string, unknown>) : { type: 'module' };
  writeFileSync(target, `${JSON.stringify({ ...existing, imports: manifest.imports }, null, 2)}\n`);
}
