import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TenetError } from '../../source/engine/errors';
import { createModel } from '../../source/engine/model/create-model';
import { ScriptEndedError, ScriptedModel } from '../../source/engine/model/scripted';
import { TOOLS } from '../../source/engine/tools/registry';
import type { ModelRequest } from '../../source/engine/model/types';

const request: ModelRequest = { system: 'sys', messages: [], tools: [], temperature: 0, maxTokens: 100 };

describe('the scripted model', () => {
  it('plays its turns in order, then says it has no more instead of answering on (and counting tokens) forever', async () => {
    const model = new ScriptedModel({
      label: 'test script',
      turns: [
        { say: 'one', calls: [] },
        { say: 'two', calls: [] },
      ],
    });
    expect((await model.complete(request)).content).toBe('one');
    expect((await model.complete(request)).content).toBe('two');
    const past = model.complete(request);
    await expect(past).rejects.toBeInstanceOf(ScriptEndedError);
    await expect(past).rejects.toThrow('The model script has no more turns (2 played)');
  });

  it('a resumed session goes on from the turn it had reached', async () => {
    const model = new ScriptedModel(
      {
        label: 'test script',
        turns: [
          { say: 'one', calls: [] },
          { say: 'two', calls: [] },
        ],
      },
      0,
      1,
    );
    expect((await model.complete(request)).content).toBe('two');
    await expect(model.complete(request)).rejects.toBeInstanceOf(ScriptEndedError);
  });
});

describe('a model script is checked as it is loaded', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'tenet-script-tools-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const load = (turns: unknown[]) => {
    const file = join(scratch, `script-${turns.length}.json`);
    writeFileSync(file, JSON.stringify({ turns }));
    return () => createModel({}, { provider: 'scripted', script: file }, {});
  };

  it('a call of a tool tenet does not have is an error at start (exit 2) naming the turn, the name, the closest tool and every tool', () => {
    const bad = load([
      { say: 'look', calls: [{ name: 'search_class', arguments: { class_name: 'Cart' } }] },
      { calls: [{ name: 'submit_code', arguments: { code: 'x' } }] },
    ]);
    let error: unknown;
    try {
      bad();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TenetError);
    const { message, fix, exitCode } = error as TenetError;
    expect(exitCode).toBe(2);
    expect(message).toMatch(
      /^Model script .*script-2\.json, turn 2: no tool submit_code \(closest: submit_implementation or submit_tests\)\.$/,
    );
    // Every tool, the submission tools and finish included.
    expect(fix).toBe(`call one of tenet's tools: ${TOOLS.map((t) => t.name).join(', ')}`);
    expect(fix).toContain('submit_implementation, run_tests, submit_tests, finish');
  });

  it("any tool of tenet is valid, whichever strategy plays the script (TDD's submit_tests and run_tests as TENET's search tools)", () => {
    const good = load([
      { calls: [{ name: 'run_tests' }, { name: 'submit_tests', arguments: { code: 'x' } }] },
      { calls: [{ name: 'search_method', arguments: { method_name: 'f' } }, { name: 'finish' }] },
    ]);
    expect(good().model.label).toMatch(/scripted/);
  });
});
