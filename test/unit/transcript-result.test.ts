import { describe, expect, it } from 'vitest';
import type { EngineEvent, RunResult } from '../../source/engine/events';
import type { ThmReport } from '../../source/engine/protocol/thm-report';
import { markdownTranscript } from '../../source/engine/session/transcript';

const result: RunResult = {
  type: 'result',
  sessionId: 's1',
  target: 'm.py::f',
  strategy: 'tdd',
  pass: false,
  stopReason: 'finished',
  selectedTests: { passed: 0, total: 0 },
  hiddenTests: { passed: 1, total: 3 },
  tests: {},
  usage: { inputTokens: 10, outputTokens: 5, modelCalls: 1, toolCalls: 2 },
  rounds: { pregen: 0, rrwAttempts: 0, total: 1 },
  costUsd: 0,
  costOfPass: null,
  wallMs: 1000,
  patch: '',
  model: 'm',
  testQuality: {
    file: 'tests/test_by_agent.py',
    tests: 4,
    subject: 'ground truth',
    groundTruth: { passed: 3, total: 4, failing: ['tests/test_by_agent.py::test_wrong'] },
    problems: [],
  },
  failure: { kind: 'matched', hints: ['it deleted tests on the way (test_basic); check whether they were right'] },
};

describe('tenet show (the Markdown transcript)', () => {
  it("prints the result's test quality and failure taxonomy", () => {
    const text = markdownTranscript('s1', [result]);
    expect(text).toContain('- generated tests (tests/test_by_agent.py, 4): 3/4 pass on the ground truth');
    expect(text).toContain("- matched failure: its own tests pass, the repository's do not (the tests were too weak)");
    expect(text).toContain('- hint: it deleted tests on the way (test_basic); check whether they were right');
    // One model call, not "1 model calls".
    expect(text).toContain('; 1 model call, 2 tool calls;');
  });

  it('prints the decisions: shell commands and the patch', () => {
    const events: EngineEvent[] = [
      { type: 'command.approval', command: 'ls', decision: 'approved-session', by: 'human' },
      { type: 'command.approval', command: 'rm -rf x', decision: 'denied', by: 'human', reason: 'no deleting' },
      { type: 'patch.decision', decision: 'accept', applied: false, reason: 'm.py changed in the checkout' },
    ];
    const text = markdownTranscript('s1', events);
    expect(text).toContain('_Shell command `ls` approved for the session by the developer._');
    expect(text).toContain('_Shell command `rm -rf x` denied by the developer: no deleting._');
    expect(text).toContain('_Patch: accept; not applied (m.py changed in the checkout)._');
  });

  it("says the scope THM's tests came from: the pytest arguments after --tests, quoted where they hold a space", () => {
    const report = {
      counts: { collected: 12, failing: 3, unreached: 0 },
      clusters: [],
      durationMs: 1500,
    } as unknown as ThmReport;
    expect(
      markdownTranscript('s1', [
        { type: 'thm.report', report: { ...report, testArgs: ['tests/unit', '-m', 'not slow'] } },
      ]),
    ).toContain(
      "12 tests in scope (`--tests tests/unit -m 'not slow'`), 3 failing (0 without reaching the target), 0 clusters, 1.5 s.",
    );
    expect(markdownTranscript('s1', [{ type: 'thm.report', report: { ...report, testArgs: [] } }])).toContain(
      '12 tests in scope, 3 failing',
    );
  });
});
