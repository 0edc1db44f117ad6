import { describe, expect, it } from 'vitest';
import { modelGoingOn } from '../../source/commands/model-going-on';
import type { EventOf } from '../../source/engine/events';
import { sampleConfig } from '../ui/helpers';

// `tenet resume` and `tenet fork` choose the model a session goes on with by one rule.

const start: EventOf<'session.start'> = {
  type: 'session.start',
  sessionId: 's1',
  target: 'm.py::f',
  mode: 'stub',
  strategy: 'tenet',
  model: 'qwen',
  modelLabel: 'qwen (OpenAI-compatible)',
  provider: 'openai',
  repo: '/r',
  config: { ...sampleConfig(), contextWindow: 32768 },
};

describe('the model a recorded session goes on with', () => {
  it('is the one in force, with its base URL and recorded window, when nothing else is asked for', () => {
    const inForce = { provider: 'openai', model: 'qwen', baseUrl: 'http://localhost:11434/v1' };
    expect(modelGoingOn(start, inForce, {}).flags).toEqual({ ...inForce, contextWindow: 32768 });
    // No resume changed it: the recorded provider and model.
    expect(modelGoingOn(start, undefined, {}).flags).toEqual({
      provider: 'openai',
      model: 'qwen',
      contextWindow: 32768,
    });
  });

  it('drops the model name and base URL for another provider, and the window for another model', () => {
    const inForce = { provider: 'openai', model: 'qwen', baseUrl: 'http://localhost:11434/v1' };
    expect(modelGoingOn(start, inForce, { provider: 'anthropic' })).toEqual({
      flags: { provider: 'anthropic' },
      scripted: false,
      same: false,
    });
    expect(modelGoingOn(start, inForce, { model: 'llama' }).flags).toEqual({
      provider: 'openai',
      model: 'llama',
      baseUrl: 'http://localhost:11434/v1',
    });
    expect(modelGoingOn(start, inForce, { model: 'llama', contextWindow: 8192 }).flags.contextWindow).toBe(8192);
  });

  it('says when the provider is the scripted one, and whether it is the one in force', () => {
    const scripted = { ...start, provider: 'scripted', model: 'scripted' };
    expect(modelGoingOn(scripted, undefined, {})).toEqual({
      flags: { provider: 'scripted', contextWindow: 32768 },
      scripted: true,
      same: true,
    });
    expect(modelGoingOn(start, undefined, { provider: 'scripted' })).toMatchObject({ scripted: true, same: false });
  });
});
