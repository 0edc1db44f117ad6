import { sampleConfig } from '../ui/helpers';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { condensedWords } from '../../source/engine/agent/context-words';
import type { EngineEvent, EventOf } from '../../source/engine/events';
import { jsonForScript, pageScript, sessionPage } from '../../source/engine/session/export-html';

// What the page escapes, checked on its text; test/e2e/export-html.test.ts checks in a browser that
// such a session runs nothing.

const ATTACK = '</script><script>alert(1)</script><!-- <script> --><img src=x onerror=alert(2)>&amp;\u2028\u2029';

const events: EngineEvent[] = [
  {
    type: 'session.start',
    sessionId: 'x<y>',
    target: 'mod.py::f</title><script>alert(3)</script>',
    mode: 'stub',
    strategy: 'tenet',
    model: 'm',
    modelLabel: ATTACK,
    provider: 'p',
    repo: '/r',
    config: sampleConfig(),
  },
  {
    type: 'model.response',
    content: ATTACK,
    toolCalls: [],
    usage: { inputTokens: 1, outputTokens: 1 },
    costUsd: 0,
    durationMs: 1,
    model: 'm',
    stopReason: 'stop',
  },
  { type: 'tool.call', id: '1', name: 'read_file', arguments: JSON.stringify({ file_name: ATTACK }) },
  { type: 'tool.result', id: '1', name: 'read_file', ok: true, text: `${ATTACK}\u0000\u001b[31m`, durationMs: 1 },
];

const between = (text: string, open: string, close: string) =>
  text.slice(text.indexOf(open) + open.length, text.indexOf(close, text.indexOf(open)));

describe('the exported session page escapes what the session holds', () => {
  it('JSON for a script element has no <, > or &, and reads back the same', () => {
    const json = jsonForScript({ text: ATTACK });
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual({ text: ATTACK });
  });

  it('a session whose outputs close the script element still has exactly two script blocks, and its events read back whole', () => {
    const page = sessionPage('x<y>', events);
    expect(page.match(/<script/gi)).toHaveLength(2);
    expect(page.match(/<\/script/gi)).toHaveLength(2);
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<!-- <script>');
    const data = JSON.parse(between(page, '<script type="application/json" id="tenet-session">', '</script>')) as {
      events: EngineEvent[];
      id: string;
    };
    expect(data.id).toBe('x<y>');
    expect(data.events).toEqual(events);
  });

  it('the title is escaped, and the Content-Security-Policy allows only the page’s own style and script, and no connection', () => {
    const page = sessionPage('x<y>', events);
    expect(between(page, '<title>', '</title>')).toBe(
      'tenet session x&lt;y&gt; · mod.py::f&lt;/title&gt;&lt;script&gt;alert(3)&lt;/script&gt;',
    );
    const policy = between(page, '<meta http-equiv="Content-Security-Policy" content="', '">');
    const script = between(page, '<script>', '</script>');
    const style = between(page, '<style>', '</style>');
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(policy).toContain(`default-src 'none'`);
    expect(policy).toContain(`script-src ${hash(script)}`);
    expect(policy).toContain(`style-src ${hash(style)}`);
    expect(policy).not.toMatch(/unsafe|https?:|connect-src/);
  });
});

describe("the page's words come from the engine", () => {
  it('a condensation is worded by agent/context-words.ts (in the page data), not by a copy in the page script', () => {
    const condensed: EngineEvent = {
      type: 'context.condensed',
      round: 4,
      why: 'threshold',
      level: 3,
      replaced: [],
      kinds: { toolOutputs: 2, submissions: 1, prompts: 0, answers: 0 },
      tokensBefore: 15000,
      tokensAfter: 9000,
      window: 16384,
    };
    const page = sessionPage('s', [events[0]!, condensed]);
    const data = JSON.parse(between(page, '<script type="application/json" id="tenet-session">', '</script>')) as {
      condensed: Record<number, string>;
    };
    expect(data.condensed).toEqual({ 1: condensedWords(condensed as EventOf<'context.condensed'>) });
    expect(data.condensed[1]).toContain('2 tool outputs cut to head and tail or to a one-line reference');
    // The wording lives in one place: the page's script has none of it.
    const script = pageScript();
    expect(script).not.toContain('cut to head and tail');
    expect(script).not.toContain('past 80% of the room');
  });
});
