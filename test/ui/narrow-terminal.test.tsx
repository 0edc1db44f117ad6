import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { RunResult } from '../../source/engine/events';
import { editDiffLines } from '../../source/ui/components/code-arguments';
import { lineText, wrapCode, wrapText } from '../../source/ui/components/lines';
import { TuiController } from '../../source/ui/controller';
import { ResultScreen } from '../../source/ui/screens/result-screen';
import { agentOn } from './agent-on';
import { frameShows, resize, rowsOf } from './helpers';

// Issue 37.11, at 80×24: rows that a long line wraps into started at the box's edge instead of
// under the line's own indentation, and a diff's wrapped rows were one column wider than the
// room they had, so the terminal cut them at the right edge.

const LONG = '        return discount(amount_before_tax, self.percent_for_customer_category_and_region)';

describe('wrapping keeps the indentation', () => {
  it('a wrapped line of code goes on under its own indentation, two columns in; no row is wider than asked', () => {
    const rows = wrapCode(LONG, 40);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(40);
    for (const row of rows.slice(1)) expect(row).toMatch(/^ {10}\S/);
    expect(rows.map((row, i) => (i ? row.slice(10) : row)).join('')).toBe(LONG);
  });

  it('a diff row keeps its + mark out of the indentation; the rows fit the width given', () => {
    const rows = editDiffLines(`@@ -1 +1 @@\n-    return 1\n+${LONG}`, 40).map(lineText);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(40);
    const added = rows.slice(2);
    expect(added[0]).toMatch(/^ {2}\+ {8}return/);
    for (const row of added.slice(1)) expect(row).toMatch(/^ {2} {11}\S/);
  });

  it('prose with a mark (`$ command`, `! warning`) goes on under its text, not under the mark', () => {
    const rows = wrapText('$ python -m pytest tests/test_cart.py --maxfail=1 -q --tb=short', 30, 2);
    expect(rows[0]).toMatch(/^\$ python/);
    for (const row of rows.slice(1)) expect(row).toMatch(/^ {2}\S/);
    expect(rows.map((row) => row.trim()).join(' ')).toBe(
      '$ python -m pytest tests/test_cart.py --maxfail=1 -q --tb=short',
    );
  });
});

describe('at 80×24', () => {
  it("the result screen's diff wraps a long line (all of it on screen, under its indentation) instead of cutting it", async () => {
    const result: RunResult = {
      type: 'result',
      sessionId: 's1',
      target: 'shop/cart.py::Cart.total',
      strategy: 'tenet',
      pass: true,
      stopReason: 'finished',
      selectedTests: { passed: 1, total: 1 },
      hiddenTests: { passed: 1, total: 1 },
      tests: { 't.py::test_total': 'passed' },
      usage: { inputTokens: 1, outputTokens: 1, modelCalls: 1, toolCalls: 1 },
      rounds: { pregen: 1, rrwAttempts: 0, total: 1 },
      costUsd: 0,
      costOfPass: null,
      wallMs: 1,
      model: 'm',
      patch: `--- a/shop/cart.py\n+++ b/shop/cart.py\n@@ -1,2 +1,2 @@\n     def total(self):\n-        raise NotImplementedError\n+${LONG}\n`,
    };
    const ui = render(
      <ResultScreen
        result={result}
        width={80}
        height={24}
        failures={{}}
        prompt={{ kind: 'accept-patch', result, resolve: vi.fn() }}
      />,
    );
    resize(ui.stdout, 80, 24);
    await frameShows(ui.lastFrame, 'diff of shop/cart.py');
    const rows = rowsOf(ui.lastFrame());
    const at = rows.findIndex((row) => row.startsWith('+        return discount('));
    expect(at).toBeGreaterThan(-1);
    expect(rows[at + 1]).toMatch(/^ {11}\S/);
    expect(rows[at]!.trimEnd() + rows[at + 1]!.trim()).toBe(`+${LONG}`);
  });

  it('a shell command to approve wraps under the command, not under the $', async () => {
    const controller = new TuiController({ autoApproveCommands: false });
    const ui = await agentOn(controller);
    resize(ui.stdout, 80, 24);
    void controller.approveCommand(
      'python -c "import sys; print(sys.version)" && pytest tests/test_cart.py tests/test_receipt.py --maxfail=1 -q',
    );
    await frameShows(ui.lastFrame, 'The agent wants to run a shell command');
    const rows = rowsOf(ui.lastFrame());
    const at = rows.findIndex((row) => row.includes('$ python -c'));
    expect(rows[at + 1]).toMatch(/^│ {3}\S/); // the border, its padding, then two columns under the `$ `
  });
});
