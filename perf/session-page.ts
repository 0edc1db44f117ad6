/**
 * perf/session-page: how the exported HTML page of a large session behaves in chromium, against
 * the demo session's page in the same browser: export time, page size, time until the first
 * card shows, a jump to the end (every card created), and a step back from there (median of 100).
 *
 *   npx tsx perf/session-page.ts [--events N] [--keep DIR]   (--keep: leave the pages in DIR to open)
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EngineEvent } from '../source/engine/events';
import { sessionPage } from '../source/engine/session/export-html';
import { openBrowser } from '../test/helpers/browser';

const argv = process.argv.slice(2);
const count = Number(argv.includes('--events') ? argv[argv.indexOf('--events') + 1] : 10_000);
const root = new URL('..', import.meta.url).pathname;
const demo = readFileSync(join(root, 'sessions', 'demo', 'events.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as EngineEvent & { ts: string });

const code = (lines: number) =>
  Array.from(
    { length: lines },
    (_, i) => `${String(i + 1).padStart(4)}     value = compute(x, y) + helper(z)  # line ${i}`,
  ).join('\n');
/** The demo's start and THM, then a cycle of model turns, tool calls with 16,000-character outputs, submissions and test runs. */
function largeSession(n: number): EngineEvent[] {
  const head = demo.slice(
    0,
    demo.findIndex((e) => e.type === 'agent.phase'),
  );
  const cycle: EngineEvent[] = [
    {
      type: 'model.request',
      round: 1,
      messages: 12,
      tools: ['search_method', 'run_tests'],
      newMessages: [{ role: 'tool', toolCallId: 'c1', name: 'search_method', content: code(40) }],
    },
    ...Array.from({ length: 8 }, (): EngineEvent => ({ type: 'model.delta', text: 'Let me look at the callers ' })),
    {
      type: 'model.response',
      content: 'Let me look at the callers of the target and the similar code.',
      toolCalls: [{ id: 'c1', name: 'search_method', arguments: '{"method_name":"total"}' }],
      usage: { inputTokens: 4200, outputTokens: 120 },
      costUsd: 0.0012,
      durationMs: 1800,
      model: 'gpt-4.1-mini',
      stopReason: 'tool_calls',
    },
    { type: 'tool.call', id: 'c1', name: 'search_method', arguments: '{"method_name":"total"}' },
    { type: 'tool.result', id: 'c1', name: 'search_method', ok: true, text: code(300).slice(0, 16_000), durationMs: 3 },
    {
      type: 'submission',
      code: `def tax_for(amount, region, category="standard"):\n${code(30)}\n`,
      ok: true,
      message: 'in place',
    },
    {
      type: 'tests.run',
      purpose: 'validate',
      report: code(60),
      outcomes: { 'tests/test_a.py::test_1': 'passed', 'tests/test_a.py::test_2': 'failed' },
      passed: 1,
      total: 2,
    },
  ];
  const start = Date.parse(demo[0]!.ts);
  const body = Array.from({ length: Math.max(0, n - head.length - 1) }, (_, i) => ({
    ...cycle[i % cycle.length]!,
    ts: new Date(start + 1000 + i * 40).toISOString(),
  }));
  return [...head, ...body, { ...demo.at(-1)!, ts: new Date(start + 1000 + body.length * 40).toISOString() }];
}

const keep = argv.includes('--keep') ? argv[argv.indexOf('--keep') + 1] : undefined;
const scratch = keep ?? mkdtempSync(join(tmpdir(), 'tenet-bench-page-'));
const browser = await openBrowser();
try {
  const measure = async (name: string, events: EngineEvent[]) => {
    const exportStart = performance.now();
    const html = sessionPage(name, events);
    const exportMs = performance.now() - exportStart;
    const file = join(scratch, `${name}.html`);
    writeFileSync(file, html);
    const page = await browser.context.newPage();
    const loadStart = performance.now();
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('.card.current');
    const firstMs = performance.now() - loadStart;
    const endStart = performance.now();
    await page.keyboard.press('End');
    await page.waitForSelector('.card.current[data-kind="result"]');
    const endMs = performance.now() - endStart;
    // Steps back, timed inside the page: each one from the key to the next painted frame.
    // (A string: this file is type-checked without the DOM's types.)
    const steps = (await page.evaluate(`(async (n) => {
      const times = [];
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
        times.push(performance.now() - t);
      }
      return times.sort((a, b) => a - b);
    })(${Math.min(100, events.length)})`)) as number[];
    const backMs = steps[Math.floor(steps.length / 2)]!;
    const cards = await page.locator('.card').count();
    await page.close();
    return { name, events: events.length, bytes: statSync(file).size, exportMs, firstMs, endMs, backMs, cards };
  };
  const base = await measure('demo', demo);
  const large = await measure('large', largeSession(count));
  for (const r of [base, large]) {
    console.log(
      `${r.name.padEnd(6)} ${String(r.events).padStart(6)} events, ${(r.bytes / 1e6).toFixed(2)} MB page, ${r.cards} cards: export ${r.exportMs.toFixed(0)} ms, first card ${r.firstMs.toFixed(0)} ms, End ${r.endMs.toFixed(0)} ms, a step back ${r.backMs.toFixed(1)} ms (median)`,
    );
  }
  const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}×`;
  console.log(
    `large/demo: events ${ratio(large.events, base.events)}, first card ${ratio(large.firstMs, base.firstMs)}, End ${ratio(large.endMs, base.endMs)}, a step back ${ratio(large.backMs, base.backMs)}`,
  );
} finally {
  await browser.close();
  if (!keep) rmSync(scratch, { recursive: true, force: true });
}
