import { describe, expect, test } from 'vitest';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { brief, problemsOf, tempProject } from '../manifest/helpers.js';

const manifest = (execution: string): string => `server:
  name: jobs
  version: 1.0.0
tools:
  - name: export
    inputSchema:
      type: object
${execution}
`;

describe('execution.taskSupport in the manifest', () => {
  test('each value the schema spells is accepted and reaches the tools/list entry', async () => {
    for (const value of ['forbidden', 'optional', 'required']) {
      const root = await tempProject({ 'manifest.yaml': manifest(`    execution:\n      taskSupport: ${value}`) });
      const { model } = await loadManifest(`${root}/manifest.yaml`);
      expect(model.tools[0]!.wire['execution']).toEqual({ taskSupport: value });
    }
  });

  test('a misspelt value is refused at its line and column, with the allowed values', async () => {
    const root = await tempProject({ 'manifest.yaml': manifest(`    execution:\n      taskSupport: sometimes`) });
    const problems = await problemsOf(`${root}/manifest.yaml`);
    expect(problems.map(brief)).toEqual(["9:20 /tools/0/execution/taskSupport 'sometimes' is not allowed here"]);
    expect(problems[0]!.hint).toBe("use one of 'forbidden', 'optional', 'required'");
  });

  test('an unknown key under execution is refused with a suggestion', async () => {
    const root = await tempProject({ 'manifest.yaml': manifest(`    execution:\n      tasksupport: optional`) });
    const problems = await problemsOf(`${root}/manifest.yaml`);
    expect(problems.map(brief)).toEqual(["9:7 /tools/0/execution/tasksupport unknown property 'tasksupport'"]);
    expect(problems[0]!.hint).toBe("did you mean 'taskSupport'?");
  });
});
