import { describe, expect, it } from 'vitest';
import { printableJson, printableValue, showControls, stripControls } from '../../source/engine/terminal-text';
import { initialView, reduceView } from '../../source/ui/view-state';
import { itemLines } from '../../source/ui/components/transcript-item';
import { streamingLines } from '../../source/ui/components/model-status';

const ESC = '\x1b';
const BEL = '\x07';

describe('untrusted text on its way to the terminal', () => {
  it.each([
    ['OSC 52 (a clipboard write), ended by BEL', `before${ESC}]52;c;cm0gLXJmIH4=${BEL}after`, 'beforeafter'],
    ['OSC 0 (the window title), ended by ST', `${ESC}]0;pwned${ESC}\\title kept`, 'title kept'],
    ['an OSC cut off at the end of a chunk', `text${ESC}]52;c;aGVsbG8`, 'text'],
    ['clear screen and cursor home', `${ESC}[2J${ESC}[Hclean`, 'clean'],
    ['colours and cursor moves of the untrusted text', `${ESC}[31mred${ESC}[0m ${ESC}[1A${ESC}[2Kup`, 'red up'],
    ['a DCS string', `${ESC}Pq#0;2;0;0;0${ESC}\\after`, 'after'],
    ['two-character escapes (reset, save cursor)', `${ESC}c${ESC}7ok`, 'ok'],
    ['C1 controls (an 8-bit CSI) and DEL', 'a\x9b2Jb\x7fc\x85d', 'a2Jbcd'],
    ['carriage returns that would overwrite a line', 'shown\rhidden\r\nnext', 'shownhidden\nnext'],
    ['a bell and a backspace', `ding${BEL}\bx`, 'dingx'],
  ])('strips %s', (_name, input, expected) => {
    expect(stripControls(input)).toBe(expected);
  });

  it('keeps newlines, tabs and any printable text', () => {
    const text = 'def f():\n\treturn "héllo ✓ 😀" # ünïcode\n';
    expect(stripControls(text)).toBe(text);
  });

  it('every string of an event, however deep, for the TUI; numbers and shapes stay', () => {
    const event = {
      type: 'tool.result',
      ok: true,
      durationMs: 3,
      text: `${ESC}]0;x${BEL}out`,
      nested: [{ a: `${ESC}[2Jb` }],
    };
    expect(printableValue(event)).toEqual({
      type: 'tool.result',
      ok: true,
      durationMs: 3,
      text: 'out',
      nested: [{ a: 'b' }],
    });
  });

  it('JSON lines escape C1 controls too (JSON itself escapes ESC)', () => {
    const line = printableJson({ text: `${ESC}[2J\x9b2J\u2028` });
    expect(line).toBe('{"text":"\\u001b[2J\\u009b2J\\u2028"}');
    expect(JSON.parse(line)).toEqual({ text: `${ESC}[2J\x9b2J\u2028` });
    expect(line).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
  });

  it('a command to approve shows its control characters instead of hiding them', () => {
    expect(showControls(`ls${ESC}]0;$(rm -rf ~)${BEL}`)).toBe('ls\\x1b]0;$(rm -rf ~)\\x07');
  });

  it("a tool call's arguments reach the TUI without the escapes their JSON encodes (issue 34 item 6)", () => {
    // JSON encodes ESC and BEL as \u001b and \u0007: decoded for the screen, they are controls again.
    const args = JSON.stringify({
      file_name: `a.py${ESC}]0;pwned${BEL}`,
      code: `x = 1\n${ESC}]52;c;cm0gLXJm${BEL}y = 2\n`,
    });
    const view = reduceView(initialView(), { type: 'tool.call', id: 'c1', name: 'read_file', arguments: args }, 0);
    const item = view.agent.items.find((i) => i.kind === 'tool')!;
    const shown = (['collapsed', 'full'] as const)
      .flatMap((mode) => itemLines(item, 80, mode))
      .map((line) => JSON.stringify(line))
      .join('\n');
    expect(shown).toContain('a.py');
    expect(shown).not.toMatch(/\\u001b|\\u0007|pwned|cm0gLXJm/);
    const streaming = streamingLines([{ index: 0, name: 'read_file', args }], 80)
      .map((line) => JSON.stringify(line))
      .join('\n');
    expect(streaming).toContain('a.py');
    expect(streaming).not.toMatch(/\\u001b|\\u0007|pwned|cm0gLXJm/);
  });
});
