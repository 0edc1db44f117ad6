import { describe, expect, it } from 'vitest';
import { applyReplacements, condense, elide } from '../../source/engine/agent/condense';
import { condensedWords, contextShare } from '../../source/engine/agent/context-words';
import { foldEvents } from '../../source/engine/session/fold';
import { markdownTranscript } from '../../source/engine/session/transcript';
import { eventShapeProblem } from '../../source/engine/session/event-schema';
import type { EngineEvent } from '../../source/engine/events';
import type { Message } from '../../source/engine/protocol/messages';

const big = (tag: string) => `${tag} start\n${'line of a long file\n'.repeat(400)}${tag} end`;

/** A session's shape: the task, reads of a large file, two submissions, the latest attempt's prompt. */
function conversation(): Message[] {
  const read = (id: string): Message[] => [
    { role: 'assistant', content: '', toolCalls: [{ id, name: 'read_file', arguments: '{"file_name":"big.py"}' }] },
    { role: 'tool', toolCallId: id, name: 'read_file', content: big(id) },
  ];
  const submit = (id: string, code: string): Message[] => [
    {
      role: 'assistant',
      content: 'Submitting.',
      toolCalls: [{ id, name: 'submit_implementation', arguments: JSON.stringify({ code }) }],
    },
    { role: 'tool', toolCallId: id, name: 'submit_implementation', content: `accepted ${id}` },
  ];
  return [
    { role: 'user', content: `Implement tax_for.\n${big('selected tests')}` },
    ...read('r1'),
    ...submit('s1', 'def tax_for(x):\n    return 1\n'),
    { role: 'user', content: `The tests fail (attempt 1):\n${big('report one')}` },
    ...read('r2'),
    ...read('r3'),
    ...submit('s2', 'def tax_for(x):\n    return 2\n'),
    { role: 'user', content: `The tests fail (attempt 2):\n${big('report two')}` },
    ...read('r4'),
    ...read('r5'),
  ];
}

describe('condensing a conversation', () => {
  it('elides the middle with a marker whose count adds up when elided again', () => {
    const text = 'a'.repeat(1000) + 'b'.repeat(1000);
    const once = elide(text, 300, 200);
    expect(once.startsWith('a'.repeat(300))).toBe(true);
    expect(once.endsWith('b'.repeat(200))).toBe(true);
    expect(once).toContain('[… tenet elided 1500 characters here to fit the context window …]');
    const twice = elide(once, 100, 50);
    expect(twice).toContain('[… tenet elided 1850 characters here to fit the context window …]');
    expect(elide('short', 10, 10)).toBe('short');
  });

  it('level 1: older tool outputs cut, superseded submissions a reference; the task, the latest submission, the latest prompt and the last two rounds whole', () => {
    const messages = conversation();
    const replaced = condense(messages, 1);
    const at = new Map(replaced.map((r) => [r.index, r.message]));
    const index = (pred: (m: Message) => boolean) => messages.findIndex(pred);
    const toolOf = (id: string) => index((m) => m.role === 'tool' && m.toolCallId === id);
    // Older reads cut, the two latest rounds' not.
    for (const id of ['r1', 'r2', 'r3'])
      expect(at.get(toolOf(id))?.content).toMatch(/^r\d start[\s\S]*tenet elided \d+ characters[\s\S]*r\d end$/);
    for (const id of ['r4', 'r5']) expect(at.has(toolOf(id))).toBe(false);
    // The first submission is a one-line reference; the latest stays whole.
    const s1 = at.get(index((m) => m.role === 'assistant' && m.toolCalls[0]?.id === 's1'));
    expect(s1?.role === 'assistant' && JSON.parse(s1.toolCalls[0]!.arguments).code).toBe(
      '# submission 1: superseded by a later one; tenet removed its code to fit the context window',
    );
    expect(at.has(index((m) => m.role === 'assistant' && m.toolCalls[0]?.id === 's2'))).toBe(false);
    // The task and every prompt stay whole at level 1.
    expect(at.has(0)).toBe(false);
    expect([...at.values()].some((m) => m.role === 'user')).toBe(false);
  });

  it('level 3: everything but what the workflow needs; the earlier report shortened, the latest kept', () => {
    const messages = conversation();
    const at = new Map(condense(messages, 3).map((r) => [r.index, r.message]));
    const prompts = messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
    expect(at.has(prompts[0]!)).toBe(false);
    expect(at.get(prompts[1]!)?.content).toContain('tenet elided');
    expect(at.has(prompts.at(-1)!)).toBe(false);
    expect(messages.filter((m, i) => m.role === 'tool' && m.content.length > 2000 && !at.has(i))).toEqual([]);
    // Reads before the latest round are a one-line reference; the latest round's is its head and tail.
    const reads = messages.flatMap((m, i) => (m.role === 'tool' && m.name === 'read_file' ? [i] : []));
    expect(at.get(reads[0]!)?.content).toMatch(
      /^\[tenet removed this read_file output \([\d,]+ characters\) to fit the context window\]$/,
    );
    expect(at.get(reads.at(-1)!)?.content).toContain('tenet elided');
  });

  it('is idempotent: a condensed conversation condenses to nothing more at the same level', () => {
    const messages = conversation();
    applyReplacements(messages, condense(messages, 2));
    expect(condense(messages, 2)).toEqual([]);
  });

  it('the event is a valid log line, folds into the same conversation, and reads as one line', () => {
    const messages = conversation();
    const replaced = condense(messages, 1);
    const event: EngineEvent = {
      type: 'context.condensed',
      round: 12,
      why: 'threshold',
      level: 1,
      replaced,
      kinds: { toolOutputs: 3, submissions: 1, prompts: 0, answers: 0 },
      tokensBefore: 11204,
      tokensAfter: 5010,
      window: 16384,
    };
    expect(eventShapeProblem(event)).toBeUndefined();
    expect(eventShapeProblem({ ...event, replaced: [{ index: 'x' }] } as never)).toMatch(/replaced/);
    const folded = foldEvents([
      { type: 'model.request', round: 12, messages: messages.length, tools: [], newMessages: messages },
      event,
    ]);
    const expected = [...messages];
    applyReplacements(expected, replaced);
    expect(folded.messages).toEqual(expected);
    expect(condensedWords(event)).toBe(
      'Context condensed before model call 12 (past 80% of the room for the request): 3 tool outputs cut to head and tail, 1 superseded submission left as a reference · 11,204 → 5,010 tokens of a 16,384-token window',
    );
    expect(contextShare({ tokens: 10_000, window: 16_384 })).toBe('ctx 61%');
    // tenet show (and export --format md) says it as the same line.
    expect(markdownTranscript('s', [event])).toContain(`_${condensedWords(event)}._`);
  });
});
