import { render } from 'ink-testing-library';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEvents } from '../../source/engine/session/event-log';
import { lineText } from '../../source/ui/components/lines';
import { itemLines } from '../../source/ui/components/transcript-item';
import { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { reduceAll } from '../../source/ui/view-state';
import { ROOT } from '../helpers/fixtures';
import { approvedStart, frameShows, KEYS, sampleStart, until } from './helpers';

const demo = loadEvents(join(ROOT, 'sessions', 'demo', 'events.jsonl')).events;

const start = sampleStart();
const approved = approvedStart();
const CODE = Array.from({ length: 40 }, (_, i) => `    total_${i} = step(${i})  # line ${i + 1} of the body`).join(
  '\n',
);

describe('the transcript shows what the agent wrote, whole', () => {
  it('each submission is a diff: the first against the stub of the task prompt, the next against the one before', () => {
    const view = reduceAll(demo);
    const revisions = view.agent.items.filter((i) => i.kind === 'revision');
    expect(revisions.map((r) => r.kind === 'revision' && [r.number, r.against])).toEqual([
      [1, 'the stub'],
      [2, 'the previous submission'],
    ]);
    const [first, second] = revisions.map((r) => (r.kind === 'revision' ? r.diff.split('\n') : []));
    expect(first).toContain('-    raise NotImplementedError');
    expect(first).toContain('+        rates = RATES[region]');
    // The whole function, unchanged lines included; only the changed ones marked.
    expect(second!.filter((l) => /^[+-]/.test(l))).toEqual([
      '-        rates = RATES[region]',
      '+        rates = RATES[region.upper()]',
    ]);
    expect(second).toContain(' def tax_for(amount, region, category="standard"):');
    // Coloured: added green, removed red, context plain.
    const rows = itemLines(revisions[1]!, 100);
    expect(rows.find((r) => lineText(r).includes('RATES[region.upper()]'))).toMatchObject({ color: 'green' });
    expect(rows.find((r) => lineText(r).includes('RATES[region]'))).toMatchObject({ color: 'red' });
    expect(rows.find((r) => lineText(r).includes('def tax_for'))).toMatchObject({ color: undefined });
  });

  it('a submission that leaves the decorators out is not shown removing them (they stay in place)', () => {
    const prompt =
      'Signature and docstring:\n```python\n@cache\ndef f(x):\n    """Doc."""\n```\n\nThe module:\n```python\nimport x\n\n\n@cache\ndef f(x):\n    """Doc."""\n    raise NotImplementedError\n```\n';
    const view = reduceAll([
      start,
      { type: 'model.request', round: 1, messages: 1, tools: [], newMessages: [{ role: 'user', content: prompt }] },
      { type: 'submission', code: 'def f(x):\n    """Doc."""\n    return x\n', ok: true, message: '' },
      { type: 'submission', code: '@cache\n@trace\ndef f(x):\n    """Doc."""\n    return x\n', ok: true, message: '' },
    ]);
    const [first, second] = view.agent.items
      .filter((i) => i.kind === 'revision')
      .map((r) => (r.kind === 'revision' ? r.diff.split('\n') : []));
    expect(first!.filter((l) => /^[+-]/.test(l))).toEqual(['-    raise NotImplementedError', '+    return x']);
    // Decorators the agent does write show as what they are.
    expect(second!.filter((l) => /^[+-]/.test(l))).toEqual(['+@cache', '+@trace']);
  });

  it('a long submission is printed in full in the transcript, every line', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    for (const event of approved) controller.dispatch(event);
    const code = `def f():\n${CODE}\n    return total_39\n`;
    controller.dispatch({
      type: 'tool.call',
      id: 'c1',
      name: 'submit_implementation',
      arguments: JSON.stringify({ code }),
    });
    controller.dispatch({
      type: 'tool.result',
      id: 'c1',
      name: 'submit_implementation',
      ok: true,
      text: 'in place',
      durationMs: 1,
    });
    controller.dispatch({ type: 'submission', code, ok: true, message: 'in place' });
    controller.dispatch({ type: 'tool.call', id: 'c2', name: 'run_tests', arguments: '{}' }); // the submission is now in <Static>
    await frameShows(ui.lastFrame, '→ run_tests');
    const frame = ui.lastFrame()!;
    expect(frame).toContain('✎ submission 1 (against nothing · +42 −0)');
    for (let i = 0; i < 40; i++) expect(frame).toContain(`+    total_${i} = step(${i})  # line ${i + 1} of the body`);
    expect(frame).toContain('→ submit_implementation code=(42 lines)');
    ui.unmount();
  });

  it("the model's explanations stay whole once they scroll out of the live part", async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    for (const event of approved) controller.dispatch(event);
    const paragraph = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const text = `${paragraph}\n\n${Array.from({ length: 20 }, (_, i) => `point ${i}`).join('\n')}`;
    controller.dispatch({
      type: 'model.response',
      content: text,
      toolCalls: [],
      usage: { inputTokens: 1, outputTokens: 1 },
      costUsd: 0,
      durationMs: 1,
      model: 'm',
      stopReason: 'stop',
    });
    controller.dispatch({ type: 'tool.call', id: 'c2', name: 'run_tests', arguments: '{}' });
    await frameShows(ui.lastFrame, '→ run_tests');
    const frame = ui.lastFrame()!;
    for (let i = 0; i < 40; i++) expect(frame).toContain(`word${i}`);
    for (let i = 0; i < 20; i++) expect(frame).toContain(`point ${i}`);
    expect(frame).not.toContain('more lines');
    ui.unmount();
  });

  it('o shows every argument of a tool call in full', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    for (const event of approved) controller.dispatch(event);
    const script = Array.from({ length: 12 }, (_, i) => `print(${i}) # step ${i}`).join('\n');
    controller.dispatch({
      type: 'tool.call',
      id: 'c1',
      name: 'run_debugger_cmd',
      arguments: JSON.stringify({ cmd: `python - <<'EOF'\n${script}\nEOF`, note: 'x'.repeat(150) }),
    });
    controller.dispatch({
      type: 'tool.result',
      id: 'c1',
      name: 'run_debugger_cmd',
      ok: true,
      text: '0',
      durationMs: 1,
    });
    await frameShows(ui.lastFrame, 'o earlier output');
    ui.stdin.write('o');
    await frameShows(ui.lastFrame, 'Outputs so far');
    ui.stdin.write(KEYS.enter);
    await frameShows(ui.lastFrame, 'in full');
    ui.stdin.write('\u001B[F'); // End: the viewer scrolls
    await frameShows(ui.lastFrame, 'EOF');
    const seen = new Set<string>();
    ui.stdin.write('\u001B[H');
    await frameShows(ui.lastFrame, 'cmd:');
    // Page down to the end, collecting every row on the way.
    const position = () => /lines (\d+)–(\d+) of (\d+)/.exec(ui.lastFrame()!)!;
    for (;;) {
      for (const row of ui.lastFrame()!.split('\n')) seen.add(row.trim());
      const [, , to, of] = position();
      if (to === of) break;
      ui.stdin.write(KEYS.pageDown);
      await until(
        () => position()[2] !== to,
        () => ui.lastFrame()!,
      );
    }
    for (let i = 0; i < 12; i++) expect([...seen].some((row) => row === `print(${i}) # step ${i}`)).toBe(true);
    expect([...seen].join('')).toContain('x'.repeat(90));
    ui.unmount();
  });
});

describe("the first submission's diff against the stub", () => {
  it('shows the docstring the submission left out as kept (tenet keeps it in place), only the stub’s body removed', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    const first = demo.findIndex((e) => e.type === 'submission');
    for (const event of demo.slice(0, first + 2)) controller.dispatch(event);
    await frameShows(ui.lastFrame, '✎ submission 1 (against the stub');
    const frame = ui.lastFrame()!;
    expect(frame).toContain('✎ submission 1 (against the stub · +8 −1)');
    const rows = frame.split('\n');
    // Unchanged lines of the stub, not removed ones.
    for (const line of ['"""Sales tax due on `amount` in `region`', 'give negative tax.']) {
      const row = rows.find((r) => r.includes(line));
      expect(row, line).toBeDefined();
      expect(row).not.toMatch(/^\s*-/);
    }
    expect(rows.filter((r) => /^\s*-\s{4}\S/.test(r)).map((r) => r.trim())).toEqual(['-    raise NotImplementedError']);
    ui.unmount();
  });
});

describe("the developer's message in the transcript", () => {
  it('keeps the indentation of each line (a pasted traceback), and a wrapped line goes on at its indentation', () => {
    const text = [
      'It fails here:',
      'Traceback (most recent call last):',
      '  File "m.py", line 3, in f',
      '    return total / count',
      'ZeroDivisionError: division by zero',
    ].join('\n');
    const view = reduceAll([...approved, { type: 'developer.message', text, round: 1, via: 'tui' }]);
    const note = view.agent.items.at(-1)!;
    const rows = itemLines(note, 100).map(lineText);
    expect(rows).toEqual([
      '👤 You told the agent: It fails here:',
      'Traceback (most recent call last):',
      '  File "m.py", line 3, in f',
      '    return total / count',
      'ZeroDivisionError: division by zero',
    ]);
    // Narrow: the long line wraps, its rows at its own indentation.
    const narrow = itemLines(
      reduceAll([
        ...approved,
        { type: 'developer.message', text: 'See:\n    assert compute_the_total([1, 2, 3]) == 6', round: 1, via: 'tui' },
      ]).agent.items.at(-1)!,
      40,
    ).map(lineText);
    expect(narrow).toEqual(['👤 You told the agent: See:', '    assert compute_the_total([1, 2, 3])', '    == 6']);
  });
});

describe('a failed tool call in the transcript', () => {
  it('its message is wrapped, not cut at the width: an unknown tool names every tool, submit_* at the end', () => {
    const tools = [
      'search_class',
      'search_class_in_file',
      'search_method',
      'search_method_in_class',
      'search_method_in_file',
      'search_code',
      'search_code_in_file',
      'read_file',
      'submit_implementation',
      'finish',
    ];
    const text = `Unknown tool submit_code. Did you mean submit_implementation? Available tools: ${tools.join(', ')}.`;
    const view = reduceAll([
      ...approved,
      { type: 'tool.call', id: 'c1', name: 'submit_code', arguments: '{}' },
      { type: 'tool.result', id: 'c1', name: 'submit_code', ok: false, text, durationMs: 1 },
    ]);
    const rows = itemLines(view.agent.items.at(-1)!, 60).map(lineText);
    expect(rows.slice(1).every((row) => row.length <= 60 && row.startsWith('  '))).toBe(true);
    expect(
      rows
        .slice(1)
        .map((row) => row.trim())
        .join(' '),
    ).toBe(text);
    expect(rows.join('\n')).not.toContain('more line');
  });
});
