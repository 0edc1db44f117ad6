import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import { loadEvents } from '../../source/engine/session/event-log';
import { foldEvents } from '../../source/engine/session/fold';
import { ROOT } from '../helpers/fixtures';

// A debugger command cut off by an interruption: a resume must know whether it was waiting for
// the developer's approval (ask again), running in the shell (run it again) or running in pdb
// (gone with the pdb session: answer it, never run it in the new shell).
describe('a session interrupted during a debugger command', () => {
  const demo = loadEvents(join(ROOT, 'sessions', 'demo', 'events.jsonl')).events;
  const start = demo.find((e) => e.type === 'session.start')!;
  const asking = {
    ...start,
    config: { ...(start.type === 'session.start' ? start.config : {}), approve: 'ask' },
  } as EngineEvent;
  const call = {
    id: 'c1',
    name: 'run_debugger_cmd',
    arguments: JSON.stringify({ cmd: '!import time; time.sleep(120)' }),
  };
  const answer = {
    type: 'model.response',
    content: '',
    toolCalls: [call],
    usage: { input: 1, output: 1 },
    costUsd: 0,
    durationMs: 1,
    model: 'scripted',
    stopReason: 'tool_calls',
  } as unknown as EngineEvent;
  const called = { type: 'tool.call', ...call } as EngineEvent;
  const input = (mode: 'shell' | 'pdb') =>
    ({ type: 'debugger.input', who: 'agent', input: '!import time; time.sleep(120)', mode }) as EngineEvent;

  it('before it ran (approval asked, none given): it waits for the approval again', () => {
    const state = foldEvents([asking, answer, called]);
    expect(state.awaitingApproval).toMatchObject({ id: 'c1' });
    expect(state.cutInDebugger).toEqual([]);
  });

  it('while pdb ran it: no approval was pending, and the resume answers it instead of running it', () => {
    const state = foldEvents([asking, answer, called, input('pdb')]);
    expect(state.awaitingApproval).toBeUndefined();
    expect(state.unansweredCalls).toEqual([call]);
    expect(state.cutInDebugger).toEqual(['c1']);
  });

  it('while the shell ran it: no approval was pending, and the resume runs it again', () => {
    const state = foldEvents([asking, answer, called, input('shell')]);
    expect(state.awaitingApproval).toBeUndefined();
    expect(state.cutInDebugger).toEqual([]);
  });

  it('made while pdb had the session, stopped before it ran (a step pause): the resume answers it, and no approval is asked', () => {
    const started = {
      type: 'debugger.entry',
      entry: {
        who: 'agent',
        input: 'python -m pdb -c "b f" run.py',
        output: '> run.py(1)<module>()',
        mode: 'shell',
        then: 'pdb',
        startedAt: 0,
        durationMs: 1,
        interrupted: false,
      },
    } as EngineEvent;
    const state = foldEvents([asking, started, answer, called]);
    expect(state.cutInDebugger).toEqual(['c1']);
    expect(state.awaitingApproval).toBeUndefined();
    // Back in the shell (pdb quit), the next command is the shell's again.
    const quit = {
      type: 'debugger.entry',
      entry: {
        who: 'agent',
        input: 'q',
        output: '',
        mode: 'pdb',
        then: 'shell',
        startedAt: 0,
        durationMs: 1,
        interrupted: false,
      },
    } as EngineEvent;
    expect(foldEvents([asking, started, quit, answer, called]).cutInDebugger).toEqual([]);
  });
});
