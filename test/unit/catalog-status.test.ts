import { describe, expect, it } from 'vitest';
import type { EngineEvent, RunResult } from '../../source/engine/events';
import { summarize } from '../../source/engine/session/catalog';

const result = (stopReason: RunResult['stopReason'], pass: boolean) =>
  ({
    type: 'result',
    sessionId: 's',
    target: 'm.py::f',
    strategy: 'tenet',
    pass,
    stopReason,
    selectedTests: { passed: 1, total: 1 },
    hiddenTests: { passed: 0, total: 0 },
    tests: {},
    usage: { inputTokens: 1, outputTokens: 1, modelCalls: 1, toolCalls: 0 },
    rounds: { pregen: 1, rrwAttempts: 0, total: 1 },
    costUsd: 0,
    costOfPass: null,
    wallMs: 1,
    patch: '',
    model: 'm',
  }) as EngineEvent;

// Issue 34: `tenet sessions` listed a run whose verdict tenet could not check as failed.
describe("a session's status in the catalog", () => {
  it('an unverified verdict is its own status, neither passed nor failed', () => {
    expect(summarize('s', [result('unverified', false)], 1).status).toBe('unverified');
    expect(summarize('s', [result('finished', false)], 1).status).toBe('failed');
    expect(summarize('s', [result('passed', true)], 1).status).toBe('passed');
  });
});
