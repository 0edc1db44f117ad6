import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import { foldEvents } from '../../source/engine/session/fold';

// What a resume keeps of how the developer ran the session: `--approve auto` or `a` at a shell
// command ("every command of this session"), and step mode where it held the agent last.
const start = (config: Record<string, unknown>) =>
  ({
    type: 'session.start',
    sessionId: 's',
    target: 'm.py::f',
    mode: 'stub',
    strategy: 'tenet',
    model: 'm',
    modelLabel: 'm',
    provider: 'openai',
    repo: '/r',
    config,
  }) as unknown as EngineEvent;
const approval = (decision: 'approved' | 'approved-session', by: 'human' | 'auto') =>
  ({ type: 'command.approval', command: 'ls', decision, by }) as EngineEvent;
const request = (round: number) => ({ type: 'model.request', round, newMessages: [] }) as unknown as EngineEvent;
const pauseBeforeModel = (round: number) => ({ type: 'step.pause', before: 'model', round }) as EngineEvent;
const call = (id: string) => ({ type: 'tool.call', id, name: 'read_file', arguments: '{}' }) as EngineEvent;
const pauseBeforeTool = (id: string) =>
  ({ type: 'step.pause', before: 'tool', callId: id, name: 'read_file' }) as EngineEvent;
const result = (id: string) =>
  ({ type: 'tool.result', id, name: 'read_file', ok: true, text: '', durationMs: 1 }) as EngineEvent;

describe('a resumed session goes on as the developer left it', () => {
  it('approvals: --approve auto, or a at a command, hold; a headless run (auto because it cannot ask) and a once-only y do not', () => {
    expect(foldEvents([start({ approve: 'auto', approveAsked: 'auto' })]).autoApprove).toBe(true);
    expect(foldEvents([start({ approve: 'auto' })]).autoApprove).toBe(false);
    expect(foldEvents([start({ approve: 'ask' }), approval('approved-session', 'human')]).autoApprove).toBe(true);
    expect(foldEvents([start({ approve: 'ask' }), approval('approved', 'human')]).autoApprove).toBe(false);
    // A later resume's own --approve decides from there.
    const resumed = (approveAsked: 'ask' | 'auto') =>
      ({ type: 'session.resumed', fromSeq: 3, position: 'p', approve: approveAsked, approveAsked }) as EngineEvent;
    expect(
      foldEvents([start({ approve: 'ask' }), approval('approved-session', 'human'), resumed('ask')]).autoApprove,
    ).toBe(false);
    expect(foldEvents([start({ approve: 'ask' }), resumed('auto')]).autoApprove).toBe(true);
  });

  it('step mode: on where a pause held the last step (model call or tool call), off once a step went by without one', () => {
    const begun = [start({ approve: 'ask' })];
    expect(foldEvents(begun).stepping).toBe(false);
    // Stopped at a pause before a model call, or after the call it held.
    expect(foldEvents([...begun, pauseBeforeModel(1)]).stepping).toBe(true);
    expect(foldEvents([...begun, pauseBeforeModel(1), request(1)]).stepping).toBe(true);
    // A tool call held by a pause, run, then stopped.
    expect(
      foldEvents([...begun, pauseBeforeModel(1), request(1), call('c1'), pauseBeforeTool('c1'), result('c1')]).stepping,
    ).toBe(true);
    // Turned off at that pause: the next request went without one.
    expect(
      foldEvents([
        ...begun,
        pauseBeforeModel(1),
        request(1),
        call('c1'),
        pauseBeforeTool('c1'),
        result('c1'),
        request(2),
      ]).stepping,
    ).toBe(false);
    // A tool call that ran without a pause after a paused request: step mode was turned off between them.
    expect(foldEvents([...begun, pauseBeforeModel(1), request(1), call('c1'), result('c1')]).stepping).toBe(false);
  });
});
