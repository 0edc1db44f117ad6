import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEvents } from '../../source/engine/session/event-log';
import { SessionRecorder } from '../../source/engine/session/recorder';
import { secretRedactor } from '../../source/engine/util/redact';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-session-recorder-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SECRET = 'planted-secret-98765';
const env = { MY_SERVICE_TOKEN: SECRET };

describe('a secret streamed in pieces', () => {
  it('never reaches the log in any piece, whichever stream it comes in', () => {
    const recorder = SessionRecorder.open(scratch, 'split', env);
    recorder.record({ type: 'debugger.output', chunk: '$ echo token\ntoken=planted-s' });
    recorder.record({ type: 'debugger.output', chunk: 'ecret-98765\nnext line\n' });
    recorder.record({ type: 'model.delta', text: 'The key is plan' });
    recorder.record({ type: 'model.delta', text: 'ted-secr' });
    recorder.record({ type: 'model.delta', text: 'et-98765, as printed.' });
    recorder.record({ type: 'warning', message: 'ends the stream' });
    recorder.record({ type: 'debugger.output', chunk: 'a tail without newline' });
    recorder.close();
    const text = readFileSync(join(scratch, 'split', 'events.jsonl'), 'utf8');
    for (const piece of ['planted-s', 'ecret-98765', 'ted-secr', 'plan"']) expect(text).not.toContain(piece);
    const events = loadEvents(join(scratch, 'split', 'events.jsonl')).events;
    const output = events
      .filter((e) => e.type === 'debugger.output')
      .map((e) => (e.type === 'debugger.output' ? e.chunk : ''));
    // Whole lines at a time; what is left when another event comes (or on close) goes as it is.
    expect(output).toEqual([
      '$ echo token\n',
      'token=[redacted:MY_SERVICE_TOKEN]\nnext line\n',
      'a tail without newline',
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'debugger.output',
      'debugger.output',
      'model.delta',
      'warning',
      'debugger.output',
    ]);
    expect(events[2]).toMatchObject({ text: 'The key is [redacted:MY_SERVICE_TOKEN], as printed.' });
  });
});

describe('streamed tool arguments', () => {
  it('are watched, not saved: the tool.call event has them whole', () => {
    const recorder = SessionRecorder.open(scratch, 'tool-deltas', {});
    recorder.record({
      type: 'model.tool-delta',
      index: 0,
      name: 'submit_implementation',
      arguments: '{"code": "def f',
    });
    recorder.record({
      type: 'model.tool-delta',
      index: 0,
      name: 'submit_implementation',
      arguments: '():\n    pass\n"}',
    });
    recorder.record({
      type: 'tool.call',
      id: 'c1',
      name: 'submit_implementation',
      arguments: '{"code": "def f():\n    pass\n"}',
    });
    recorder.close();
    expect(loadEvents(join(scratch, 'tool-deltas', 'events.jsonl')).events.map((e) => e.type)).toEqual(['tool.call']);
  });
});

describe('safeCut', () => {
  const { safeCut } = secretRedactor({ A_TOKEN: 'abcdef123', B_TOKEN: 'f123xyz789' });
  it.each([
    ['no secret near the cut', 'hello\nworld', 6, 6],
    ['a secret across the cut', 'x abcdef123 y\n', 5, 2],
    ['the beginning of a secret at the end of the text', 'line\nx abcd', 11, 7],
    ['a secret across the cut, overlapping another that starts earlier', 'abcdef123xyz789', 6, 0],
    ['a cut past the end', 'xyz', 10, 3],
  ])('%s', (_name, text, cut, expected) => {
    expect(safeCut(text, cut)).toBe(expected);
  });
});
