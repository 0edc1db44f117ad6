import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineEvent, EventOf } from '../../source/engine/events';
import { headlessPilot, type Pilot } from '../../source/engine/run/pilot';
import type { CommandDecision } from '../../source/engine/protocol/decisions';
import { foldEvents } from '../../source/engine/session/fold';
import type { FakeTurn } from '../helpers/fake-model-server';
import { LOCAL } from '../../source/engine/sandbox/create-sandbox';
import { copyFixture } from '../helpers/fixtures';
import { RIGHT, WRONG, phases, server, session, submit } from '../helpers/agent-session';

describe('the Reflective Refinement Workflow: stages enforced, not only prompted', () => {
  const offered = (index: number) =>
    (server!.requests[index]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
  const search: FakeTurn = {
    calls: [{ name: 'search_method_in_class', arguments: { method_name: 'subtotal', class_name: 'Cart' } }],
  };

  it('attempt 1 goes through failure identification, context review and code refinement; a submission before stage 3 is refused', async () => {
    const { result, events } = await session('openai', [
      submit(WRONG),
      { say: 'I know the fix already.', calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] },
      { say: 'The total ignores the discount.' },
      { say: 'Cart.summary formats total(); discount() in shop.pricing applies a percent.' },
      submit(RIGHT),
    ]);
    expect(result).toMatchObject({ pass: true, stopReason: 'passed', rounds: { pregen: 1, rrwAttempts: 1, total: 5 } });
    expect(phases(events)).toEqual([
      'pregen',
      'validate',
      'rrw 1 failure-identification',
      'rrw 1 context-review',
      'rrw 1 code-refinement',
      'validate 1',
      'evaluate',
    ]);
    // The stage-1 submission got a refusal the model can act on, and was no submission.
    expect(events.find((e) => e.type === 'tool.result' && e.name === 'submit_implementation' && !e.ok)).toMatchObject({
      text: 'submit_implementation is not available in stage 1 (failure identification): the refinement workflow takes submissions in stage 3 (code refinement). Answer without a tool call to end this stage.',
    });
    const accepted = events.flatMap((e, i) => (e.type === 'submission' && e.ok ? [i] : []));
    expect(accepted).toHaveLength(2);
    const refinement = events.findIndex((e) => e.type === 'agent.phase' && e.stage === 'code-refinement');
    expect(accepted[1]).toBeGreaterThan(refinement);
    // Every stage is offered the same tools, byte for byte (they head the cached prefix): stages 1
    // and 2 refuse the submitter instead of leaving it out.
    expect(offered(1)).toContain('submit_implementation');
    expect(offered(1)).toContain('run_debugger_cmd');
    const tools = server!.requests.map((request) => JSON.stringify(request.body.tools));
    expect(new Set(tools).size).toBe(1);
  });

  it("a stage whose rounds are used up ends; the attempt's rounds are shared, and code refinement always keeps one", async () => {
    // 3 rounds: failure identification may use 1, context review up to the 2nd, refinement the 3rd.
    const { result, events } = await session('openai', [submit(WRONG), search, search, submit(RIGHT)], {
      rrwRounds: 3,
    });
    expect(phases(events)).toEqual([
      'pregen',
      'validate',
      'rrw 1 failure-identification',
      'rrw 1 context-review',
      'rrw 1 code-refinement',
      'validate 1',
      'evaluate',
    ]);
    expect(result).toMatchObject({ pass: true, rounds: { pregen: 1, rrwAttempts: 1, total: 4 } });
    await server!.close();
    // One round per attempt: it goes to code refinement.
    const tight = await session('openai', [submit(WRONG), submit(RIGHT)], { rrwRounds: 1 });
    expect(phases(tight.events)).toEqual(['pregen', 'validate', 'rrw 1 code-refinement', 'validate 1', 'evaluate']);
    expect(tight.result.pass).toBe(true);
  });
});

describe("the developer's decisions, recorded as events", () => {
  const debuggerCall = (cmd: string): FakeTurn => ({ calls: [{ name: 'run_debugger_cmd', arguments: { cmd } }] });
  const of = <T extends EngineEvent['type']>(events: EngineEvent[], type: T) =>
    events.filter((e): e is EventOf<T> => e.type === type);

  it('shell commands: approved, approved for the session, denied; Esc stops the agent and the pending call still gets its result', async () => {
    const answers: CommandDecision[] = [
      { run: true },
      { run: true, session: true },
      { run: false, reason: 'not that one' },
      { stop: true },
    ];
    const pilot: Pilot = { ...headlessPilot(false), approveCommand: async () => answers.shift()! };
    const { result, events } = await session(
      'openai',
      [
        debuggerCall('echo one'),
        debuggerCall('echo two'),
        debuggerCall('echo three'),
        debuggerCall('echo four'),
        submit(RIGHT),
      ],
      {},
      LOCAL,
      { pilot },
    );
    expect(of(events, 'command.approval').map((e) => [e.command, e.decision, e.reason])).toEqual([
      ['echo one', 'approved', undefined],
      ['echo two', 'approved-session', undefined],
      ['echo three', 'denied', 'not that one'],
      ['echo four', 'stopped', undefined],
    ]);
    expect(result.stopReason).toBe('cancelled');
    // Every call that started has its result: nothing shows as running forever.
    const results = new Map(of(events, 'tool.result').map((e) => [e.id, e]));
    expect(of(events, 'tool.call').filter((c) => !results.has(c.id))).toEqual([]);
    const last = of(events, 'tool.call').at(-1)!;
    expect(results.get(last.id)).toMatchObject({ ok: false, text: 'Not run to the end: stopped by the developer.' });
    expect(foldEvents(events).unansweredCalls).toEqual([]);
  });

  it('the patch: accepted and applied; accepted but refused when the checkout changed meanwhile', async () => {
    const repo = copyFixture('shop');
    const file = join(repo.dir, 'shop', 'cart.py');
    try {
      const applied = await session('openai', [submit(RIGHT)], {}, LOCAL, {
        repo: repo.dir,
        pilot: { ...headlessPilot(false), acceptPatch: async () => 'accept' },
      });
      expect(of(applied.events, 'patch.decision')).toEqual([
        { type: 'patch.decision', decision: 'accept', applied: true },
      ]);
      expect(applied.result.applied).toBe(true);
      expect(readFileSync(file, 'utf8')).toContain('amount = self.subtotal()');

      await server!.close();
      // The developer edits the file while the run goes on; accepting must not overwrite that.
      const edit = async () => (appendFileSync(file, '# edited meanwhile\n'), true);
      const refused = await session('openai', [submit(WRONG)], { rrwAttempts: 0 }, LOCAL, {
        repo: repo.dir,
        pilot: { ...headlessPilot(false), acceptPatch: edit },
      });
      expect(of(refused.events, 'patch.decision')).toEqual([
        {
          type: 'patch.decision',
          decision: 'accept',
          applied: false,
          reason: expect.stringContaining('changed in the checkout since the run started'),
        },
      ]);
      expect(refused.result.applied).toBe(false);
      expect(refused.events.at(-1)).toMatchObject({ type: 'result', applied: false });
      expect(readFileSync(file, 'utf8')).toContain('# edited meanwhile');
    } finally {
      repo.cleanup();
    }
  });
});
