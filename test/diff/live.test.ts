/**
 * Live sides: the official "everything" server over stdio (`cmd:`), against a snapshot of itself
 * read through the same introspection `mcp-gen client --save-snapshot` uses.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { introspect, snapshotText, type ServerSnapshot } from '../../src/load/introspect.js';
import { everythingBin } from '../client/support.js';
import { run, tempDir } from './helpers.js';

const command = `cmd:'${process.execPath}' '${everythingBin}' stdio`;

describe('mcp-gen diff with a live stdio server', () => {
  it('finds no difference against its own snapshot, and a removed tool against an edited one', async () => {
    const snapshot: ServerSnapshot = await introspect({ command: process.execPath, args: [everythingBin, 'stdio'], stderr: 'ignore' }, () => {});
    expect(snapshot.tools.length).toBeGreaterThan(1);
    const dir = tempDir();
    const same = join(dir, 'everything.json');
    writeFileSync(same, snapshotText(snapshot));

    const unchanged = await run('diff', same, command, '--fail-on', 'any');
    expect(unchanged.err).toEqual([]);
    expect(unchanged.out.at(-1)).toBe('no differences.');
    expect(unchanged.code).toBe(0);

    // The old snapshot had one tool more than the live server has now.
    const extra = { ...snapshot.tools[0], name: 'retired_tool' };
    const older = join(dir, 'older.json');
    writeFileSync(older, snapshotText({ ...snapshot, tools: [...snapshot.tools, extra] }));
    const result = await run('diff', older, command, '--json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.out.join('\n'));
    expect(report.old).toEqual({ kind: 'snapshot', source: older });
    expect(report.new).toEqual({ kind: 'command', source: command });
    expect(report.findings).toEqual([
      // Same schemas as the first tool, which is still there: a removal, but no rename to point at.
      { kind: 'removed', severity: 'breaking', item: 'tool retired_tool', pointer: '/tools/retired_tool', message: 'tool "retired_tool" removed' },
    ]);
  });
});
