import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleContext, testsSection } from '../../source/engine/agent/task-context';
import type { ThmFailingTest } from '../../source/engine/protocol/thm-report';
import type { PreparedTarget } from '../../source/engine/task/prepare-target';

describe("the task prompt's module excerpt", () => {
  it('keeps the source as it is around the target of a long module, blank lines included', () => {
    const filler = Array.from({ length: 200 }, (_, i) => `X${i} = ${i}`);
    const around = [
      'def before(x):',
      '    """First paragraph.',
      '',
      '    Second paragraph.',
      '    """',
      '    return x',
      '',
      '',
      'def target(x):',
      '    """What it does."""',
      '    raise NotImplementedError',
      '',
      '',
      'def after(x):',
      '    return x',
    ];
    const lines = [...filler, ...around, ...filler];
    const startLine = filler.length + 9; // `def target`, 1-based
    const target = {
      startText: lines.join('\n'),
      startLine,
      prompt: 'def target(x):\n    """What it does."""\n',
    } as unknown as PreparedTarget;
    const excerpt = moduleContext(target);
    expect(excerpt).toContain(around.join('\n'));
    // Marks the lines left out, before and after.
    const shown = excerpt.split('\n');
    expect(shown[0]).toMatch(/^# … lines 1-\d+ …$/);
    expect(shown.at(-1)).toMatch(/^# … lines \d+-415 …$/);
    // Exactly the module's lines between the marks.
    const first = Number(/lines 1-(\d+)/.exec(shown[0]!)![1]);
    expect(shown.slice(1, -1)).toEqual(lines.slice(first, first + shown.length - 2));
  });

  it('a short module is shown whole', () => {
    const text = 'import os\n\n\ndef target():\n    """Doc.\n\n    More."""\n    pass\n';
    expect(
      moduleContext({ startText: text, startLine: 4, prompt: 'def target():\n' } as unknown as PreparedTarget),
    ).toBe(text.trimEnd());
  });
});

describe("the task prompt's tests", () => {
  it('a test of a thousand lines shows its head and its end, and says which lines of its file were left out', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tenet-task-tests-'));
    try {
      const body = Array.from({ length: 1000 }, (_, i) => `    assert check(${i}) == ${i}`);
      const lines = [
        'import re',
        '',
        '',
        'def test_short():',
        '    assert check(1) == 1',
        '',
        '',
        'def test_long():',
        ...body,
        '',
      ];
      writeFileSync(join(root, 'test_big.py'), lines.join('\n'));
      const test = (name: string) =>
        ({
          nodeid: `test_big.py::${name}`,
          longrepr: 'E   NotImplementedError',
          message: 'NotImplementedError',
        }) as ThmFailingTest;
      const section = await testsSection(root, [test('test_short'), test('test_long')]);
      expect(section).toContain('def test_short():\n    assert check(1) == 1\n```');
      const long = section.slice(section.indexOf('def test_long'));
      // Lines 8 (the def) to 87 shown, 88 to 978 left out, 979 to 1008 shown.
      expect(long).toContain(
        '    assert check(78) == 78\n    # … lines 88-978 of test_big.py left out here (891 lines): read them with read_file or get_code_around_line …\n    assert check(970) == 970\n',
      );
      expect(long).not.toContain('check(79)');
      expect(long).not.toContain('check(969)');
      expect(long).toContain('    assert check(999) == 999\n```');
      expect(lines[87 - 1]).toBe('    assert check(78) == 78'); // the marker's numbers are the file's
      expect(lines[979 - 1]).toBe('    assert check(970) == 970');
      expect(section.length).toBeLessThan(6000);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
