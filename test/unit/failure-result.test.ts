import { describe, expect, it } from 'vitest';
import { RunTally } from '../../source/engine/run/failure-result';

describe('the result of a run that failed', () => {
  it('counts what the events say: session, tests, usage, cost', () => {
    const tally = new RunTally({ sessionId: 's9', target: 'm.py::f', strategy: 'tenet', model: 'gpt' });
    tally.observe({ type: 'thm.approval', proposed: ['a', 'b'], chosen: ['a', 'b'], by: 'auto', T: 2 });
    tally.observe({ type: 'model.request', round: 1, messages: 1, tools: [], newMessages: [] });
    tally.observe({
      type: 'model.response',
      content: '',
      toolCalls: [],
      usage: { inputTokens: 100, outputTokens: 7 },
      costUsd: 0.5,
      durationMs: 1,
      model: 'gpt',
      stopReason: 'stop',
    });
    tally.observe({ type: 'tool.result', id: 'c', name: 'read_file', ok: true, text: '', durationMs: 1 });
    expect(tally.failed(new Error('server error (500); gave up after 5 attempts'))).toMatchObject({
      type: 'result',
      sessionId: 's9',
      pass: false,
      stopReason: 'error',
      message: 'server error (500); gave up after 5 attempts',
      selectedTests: { passed: 0, total: 2 },
      usage: { inputTokens: 100, outputTokens: 7, modelCalls: 1, toolCalls: 1 },
      costUsd: 0.5,
      rounds: { total: 1 },
      applied: false,
    });
  });
});
