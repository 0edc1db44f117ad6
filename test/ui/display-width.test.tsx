import { render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../source/engine/session/catalog';
import {
  hardWrap,
  pack,
  padColumns,
  shortEnd,
  shortMiddle,
  shortStart,
  wrapCode,
  wrapText,
} from '../../source/ui/components/lines';
import { FieldText } from '../../source/ui/components/text-field';
import { sessionCells } from '../../source/ui/screens/session-rows';
import { fitHeaderLine } from '../../source/ui/screens/agent-header';

// Issue 46, "Width and wrapping": text was measured in UTF-16 units, so a row of CJK text was
// twice as wide as counted (wrapText('日本語…', 20) gave rows of 28 and 25 columns), and a cut could
// fall inside a grapheme (an emoji with its skin tone, a letter and its combining accent).

const CJK = '日本語のテキストは二つの列を使います。関数の説明も長くなります。';
const EMOJI = '👍🏽 done ✅ then 🚀 launched 👨‍👩‍👧 family and more 🎉🎉🎉 to wrap';
const COMBINING = 'cafe\u0301 re\u0301sume\u0301 na\u0131\u0308ve '.repeat(4);
const width = (row: string) => stringWidth(row);
// No row may end in a lone skin-tone modifier, joiner or combining mark: a grapheme cut in two.
const cutInside = (row: string) => /^[\u0300-\u036f\u200d]|[\u200d]$|^\u{1F3FD}/u.test(row);

describe('text measured by its display width', () => {
  for (const [name, text] of [
    ['CJK', CJK],
    ['emoji', EMOJI],
    ['combining marks', COMBINING],
  ] as const) {
    it(`${name}: wrapText, wrapCode and hardWrap rows fit the columns, no grapheme cut in two`, () => {
      for (const cols of [7, 10, 20, 33]) {
        for (const rows of [wrapText(text, cols), wrapCode(`    ${text}`, cols), hardWrap(text, cols)]) {
          for (const row of rows) {
            expect(width(row), `${JSON.stringify(row)} at ${cols}`).toBeLessThanOrEqual(cols);
            expect(cutInside(row)).toBe(false);
          }
          expect(rows.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
        }
      }
    });
  }

  it('the issue’s case: wrapText of Japanese at 20 columns', () => {
    const rows = wrapText('日本語のテキストは二つの列を使います', 20);
    expect(rows.map(width)).toEqual([20, 16]);
  });

  it('cuts and pads by columns', () => {
    for (const text of [CJK, EMOJI, COMBINING]) {
      for (const cols of [8, 15, 30]) {
        expect(width(shortEnd(text, cols))).toBeLessThanOrEqual(cols);
        expect(width(shortStart(text, cols))).toBeLessThanOrEqual(cols);
        expect(width(shortMiddle(text, cols))).toBeLessThanOrEqual(cols);
      }
    }
    expect(width(padColumns('日本', 10))).toBe(10);
    expect(pack(['日本語 キー', '中文 键', '한국어 키'], 16).every((row) => width(row) <= 16)).toBe(true);
  });

  it('the sessions browser’s rows are as wide as each other with a target in CJK', () => {
    const entry = (id: string, target: string) =>
      ({
        id,
        target,
        status: 'passed',
        provider: 'openai',
        model: 'gpt-4o-mini',
        costUsd: 0.01,
      }) as CatalogEntry;
    const cells = sessionCells(
      [
        { row: entry('a', '数据/处理.py::计算总额'), depth: 0 },
        { row: entry('b', 'data/process.py::total'), depth: 0 },
      ],
      80,
    );
    const rowWidth = (c: (typeof cells)[number]) => width(`${c.id} ${c.status} ${c.target} ${c.model} ${c.cost}`);
    expect(rowWidth(cells[0]!)).toBe(rowWidth(cells[1]!));
  });

  it('the agent header fits a CJK target in the width', () => {
    const line = fitHeaderLine(
      '数据/处理模块/子模块.py::计算每个订单的总额和税费',
      '',
      { long: 'pre-generation · round 1/15', short: 'round 1/15' },
      60,
    );
    expect(width(`${line.name ? 'tenet · ' : ''}${line.target} · ${line.phase}`)).toBeLessThanOrEqual(60);
  });

  it('a text field with CJK text keeps the cursor in its width', () => {
    const value = '関数の説明を書いてください、長い文章です';
    const { lastFrame } = render(<FieldText state={{ value, cursor: value.length }} width={20} />);
    expect(width(lastFrame()!)).toBeLessThanOrEqual(20);
    expect(lastFrame()).toContain('…');
  });
});
