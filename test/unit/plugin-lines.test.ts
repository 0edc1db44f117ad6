import { describe, expect, it } from 'vitest';
import { MARK, PluginLineReader, type PluginEvent } from '../../source/engine/thm/plugin-lines';

const event = (nodeid: string) => `${MARK}${JSON.stringify({ e: 'start', nodeid })}\n`;

describe("reading the THM plugin's lines from pytest's output", () => {
  it('finds events split across chunks, among the tests own output', () => {
    const events: PluginEvent[] = [];
    const reader = new PluginLineReader((e) => events.push(e));
    const text = `some output\n${event('t.py::a')}partial line then ${event('t.py::b')}`;
    for (let i = 0; i < text.length; i += 7) reader.push(text.slice(i, i + 7));
    reader.end();
    expect(events).toEqual([
      { e: 'start', nodeid: 't.py::a' },
      { e: 'start', nodeid: 't.py::b' },
    ]);
    expect(reader.noise).toContain('some output');
  });

  it('gets through 100 MB printed without a newline in one pass, and still sees the next event', () => {
    const events: PluginEvent[] = [];
    const reader = new PluginLineReader((e) => events.push(e));
    const chunk = 'x'.repeat(65_536);
    for (let sent = 0; sent < 100_000_000; sent += chunk.length) reader.push(chunk);
    reader.push(event('t.py::after'));
    // (The old reader rescanned the whole pending line per chunk: a minute here; now one pass.)
    expect(events).toEqual([{ e: 'start', nodeid: 't.py::after' }]);
    // What is kept of the output for diagnostics stays small.
    expect(reader.noise.length).toBeLessThanOrEqual(4_000);
  });
});
