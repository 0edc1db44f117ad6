import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEvents } from '../../source/engine/session/event-log';
import { SessionRecorder } from '../../source/engine/session/recorder';
import { StreamCap } from '../../source/engine/tools/debugger/session';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-session-caps-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("one command's live output", () => {
  it('goes out whole up to 32 KB', () => {
    const cap = new StreamCap();
    expect(cap.push('a'.repeat(1000))).toBe('a'.repeat(1000));
    expect(cap.end()).toBe('');
  });

  it('past 32 KB keeps only its tail, sent at the end after the count of bytes dropped', () => {
    const cap = new StreamCap();
    let sent = '';
    for (let i = 0; i < 10_000; i++) sent += cap.push(`${String(i).padStart(9, '0')}\n`);
    expect(sent.length).toBe(32 * 1024);
    const end = cap.end();
    expect(end).toBe(
      `\n[tenet: ${100_000 - 32 * 1024 - 4096} bytes of output dropped]\n${Array.from(
        { length: 10_000 },
        (_, i) => `${String(i).padStart(9, '0')}\n`,
      )
        .join('')
        .slice(-4096)}`,
    );
    // The next command starts with its own budget.
    expect(cap.push('x'.repeat(100))).toBe('x'.repeat(100));
  });
});

describe('a session log that reaches its size limit', () => {
  it('says so, tells the run to stop, and then takes only the events that end the session', () => {
    const recorder = SessionRecorder.open(scratch, 'full', {}, [], { maxBytes: 20_000 });
    const told: string[] = [];
    recorder.whenFull((reason) => told.push(reason));
    for (let i = 0; i < 100; i++)
      recorder.record({
        type: 'tool.result',
        id: `${i}`,
        name: 'run_debugger_cmd',
        ok: true,
        text: 'x'.repeat(1000),
        durationMs: 1,
      });
    recorder.record({ type: 'agent.phase', phase: 'evaluate' });
    recorder.record({ type: 'debugger.output', chunk: 'more output\n'.repeat(100) });
    recorder.close();
    expect(told).toEqual(['The session log reached its size limit (0 MB, maxSessionMb): the run was stopped.']);
    expect(recorder.full).toBe(told[0]);
    const file = join(scratch, 'full', 'events.jsonl');
    expect(statSync(file).size).toBeLessThan(23_000);
    const types = loadEvents(file).events.map((e) => e.type);
    expect(types.filter((t) => t === 'tool.result').length).toBeLessThan(20);
    expect(types.slice(-2)).toEqual(['warning', 'agent.phase']);
  });
});
