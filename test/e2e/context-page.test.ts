import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { condensedWords } from '../../source/engine/agent/context-words';
import type { EventOf } from '../../source/engine/events';
import { describeBrowser, openBrowser, watch } from '../helpers/browser';
import { runCli } from '../helpers/cli';
import { ROOT } from '../helpers/fixtures';

// A condensation on the exported session page: one line, the same words as the TUI and `tenet show`.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-context-page-'));
let browser: Awaited<ReturnType<typeof openBrowser>>;
beforeAll(async () => {
  browser = await openBrowser();
});
afterAll(async () => {
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describeBrowser('the session page', () => {
  it('shows a context condensation as a line of its own', async () => {
    const events = readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const condensed: EventOf<'context.condensed'> = {
      type: 'context.condensed',
      round: 3,
      why: 'stage',
      level: 1,
      replaced: [],
      kinds: { toolOutputs: 2, submissions: 1, prompts: 0, answers: 0 },
      tokensBefore: 40_000,
      tokensAfter: 20_000,
      window: 65_536,
    };
    const at = events.findIndex((e) => e.type === 'model.request' && e.round === 3);
    events.splice(at + 1, 0, condensed as unknown as Record<string, unknown>);
    const log = join(scratch, 'condensed.jsonl');
    let ts: unknown;
    writeFileSync(
      log,
      `${events.map((e, i) => JSON.stringify({ ...e, v: 1, seq: i + 1, ts: (ts = e.ts ?? ts) })).join('\n')}\n`,
    );
    const out = join(scratch, 'condensed.html');
    const result = await runCli(['export', log, '--format', 'html', '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    const page = await browser.context.newPage();
    const seen = watch(page);
    await page.goto(pathToFileURL(out).href);
    await page.click('#last');
    const notes = await page.locator('.card[data-kind="note"] h3').allTextContents();
    expect(notes).toContain(condensedWords(condensed));
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});
