/** `--import-extension ts`: relative specifiers of generated TypeScript end in `.ts`; nothing else changes. */
import { describe, expect, it } from 'vitest';
import { withImportExtension } from '../../src/emit/import-extension.js';
import type { PlannedFile } from '../../src/write/planned-file.js';

const source = `import { a } from './a.js';
import type { T } from '../types/t.js';
import {
  b,
} from "./b/c.js";
export * from './d.js';
export { e } from './e.js';
import { readFile } from 'node:fs/promises';
import { jwtVerify } from 'jose';
const f = () => import('./lazy/f.js');
/** import('./in-comment.js') from './in-comment.js' */
const text = "from './in-string.js' import('./in-string.js')";
const escaped = import('./\\u0067.js');
const json = './data.json';
`;

const expected = `import { a } from './a.ts';
import type { T } from '../types/t.ts';
import {
  b,
} from "./b/c.ts";
export * from './d.ts';
export { e } from './e.ts';
import { readFile } from 'node:fs/promises';
import { jwtVerify } from 'jose';
const f = () => import('./lazy/f.ts');
/** import('./in-comment.js') from './in-comment.js' */
const text = "from './in-string.js' import('./in-string.js')";
const escaped = import('./\\u0067.js');
const json = './data.json';
`;

const file = (path: string, content: string, extra: Partial<PlannedFile> = {}): PlannedFile => ({ path, content, owner: 'generated', format: 'none', ...extra });

describe('--import-extension', () => {
  it('ts: rewrites the relative specifiers of imports, re-exports and import() calls, never strings, comments or escapes', async () => {
    const [out] = await withImportExtension([file('generated/server.ts', source)], 'ts');
    expect(out?.content).toBe(expected);
  });

  it('js: returns the files as they are; ts leaves non-TypeScript files and the validator modules alone', async () => {
    const files = [file('generated/server.ts', source), file('README.md', source), file('generated/validators/x.ts', source), file('runtime/request-validators.ts', source)];
    expect(await withImportExtension(files, 'js')).toBe(files);
    const out = await withImportExtension(files, 'ts');
    expect(out.slice(1).map((f) => f.content)).toEqual([source, source, source]);
  });

  it('rewrites what a user-owned file merge adds', async () => {
    const merged = await withImportExtension([file('handlers/index.ts', '', { owner: 'user', merge: () => "import('./tools/new.js');\n" })], 'ts');
    expect(await merged[0]?.merge?.('')).toBe("import('./tools/new.ts');\n");
  });
});
