import { describe, expect, it } from 'vitest';
import { moduleContext } from '../../source/engine/agent/task-context';
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
    const target = { startText: lines.join('\n'), startLine, prompt: 'def target(x):\n    """What it does."""\n' } as unknown as PreparedTarget;
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
    expect(moduleContext({ startText: text, startLine: 4, prompt: 'def target():\n' } as unknown as PreparedTarget)).toBe(text.trimEnd());
  });
});
