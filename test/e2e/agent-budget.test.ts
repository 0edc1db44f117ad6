import { describe, expect, it } from 'vitest';
import { closeServer, RIGHT, WRONG, server, session, submit, toolMessages } from '../helpers/agent-session';

describe('the TENET agent against a fake model server (real SDK clients)', () => {
  it('stops when the budget is spent: no submission in pre-generation, then refinement that never passes', async () => {
    const none = await session('openai', [{ say: 'Thinking.' }, { say: 'Still thinking.' }], { pregenRounds: 2 });
    expect(none.result).toMatchObject({ pass: false, stopReason: 'no-implementation', usage: { modelCalls: 2 } });
    // The blank stays: every failing test still fails.
    expect(none.result.selectedTests).toEqual({ passed: 0, total: 2 });
    expect(JSON.stringify(server!.requests[1]!.body.messages)).toContain(
      'Call submit_implementation with the complete function now.',
    );
    await closeServer();
    const spent = await session('openai', [submit(WRONG), submit(WRONG)], { rrwAttempts: 1, rrwRounds: 1 });
    expect(spent.result).toMatchObject({ pass: false, stopReason: 'budget', rounds: { rrwAttempts: 1 } });
    expect(spent.result.patch).toContain('+        return self.subtotal()');
  });

  it('sends malformed tool JSON, unknown tools and wrong arguments back to the model as errors', async () => {
    const { result } = await session('openai', [
      {
        calls: [
          { name: 'search_class', arguments: '{"class_name": ' },
          { name: 'search_everything', arguments: {} },
          { name: 'read_file', arguments: { start_line: 'x' } },
        ],
      },
      submit(RIGHT),
    ]);
    expect(result.pass).toBe(true);
    const [malformed, unknown, wrong] = toolMessages(server!.requests[1]!);
    expect(malformed).toMatch(/^The arguments of search_class are not valid JSON/);
    expect(unknown).toMatch(
      /^Unknown tool search_everything\. Did you mean search_[a-z_]+\? Available tools: search_class,.*, submit_implementation, .*\.$/,
    );
    expect(wrong).toBe(
      'Wrong arguments for read_file:\n- file_name: Invalid input: expected string, received undefined\n- start_line: Invalid input: expected number, received NaN',
    );
  });

  it('retries a 429 and a stream cut mid-way, and goes on', async () => {
    const { result, events } = await session('anthropic', [
      { status: 429 },
      { say: 'I will implement it now and', cut: true },
      submit(RIGHT),
    ]);
    expect(result.pass).toBe(true);
    expect(events.filter((e) => e.type === 'model.retry').map((e) => e.type === 'model.retry' && e.reason)).toEqual([
      'rate limited (429): Rate limit reached',
      expect.stringMatching(/^connection lost/),
    ]);
    expect(result.usage.modelCalls).toBe(1);
  });
});
