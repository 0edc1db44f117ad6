import { describe, expect, it } from 'vitest';
import { ScriptEndedError, ScriptedModel } from '../../source/engine/model/scripted';
import type { ModelRequest } from '../../source/engine/model/types';

const request: ModelRequest = { system: 'sys', messages: [], tools: [], temperature: 0, maxTokens: 100 };

describe('the scripted model', () => {
  it('plays its turns in order, then says it has no more instead of answering on (and counting tokens) forever', async () => {
    const model = new ScriptedModel({ label: 'test script', turns: [{ say: 'one', calls: [] }, { say: 'two', calls: [] }] });
    expect((await model.complete(request)).content).toBe('one');
    expect((await model.complete(request)).content).toBe('two');
    const past = model.complete(request);
    await expect(past).rejects.toBeInstanceOf(ScriptEndedError);
    await expect(past).rejects.toThrow('The model script has no more turns (2 played)');
  });

  it('a resumed session goes on from the turn it had reached', async () => {
    const model = new ScriptedModel({ label: 'test script', turns: [{ say: 'one', calls: [] }, { say: 'two', calls: [] }] }, 0, 1);
    expect((await model.complete(request)).content).toBe('two');
    await expect(model.complete(request)).rejects.toBeInstanceOf(ScriptEndedError);
  });
});
