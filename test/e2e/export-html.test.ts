import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { condensedWords } from '../../source/engine/agent/context-words';
import type { EventOf } from '../../source/engine/events';
import { describeBrowser, openBrowser, screenshotPath, watch } from '../helpers/browser';
import { runCli } from '../helpers/cli';
import { ROOT } from '../helpers/fixtures';

// `tenet export --format html` writes one page that replays a session. These tests open it from a
// file in Debian's chromium, as a colleague would, and use the player as a reader does.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-export-html-'));
let browser: Awaited<ReturnType<typeof openBrowser>>;
beforeAll(async () => {
  browser = await openBrowser();
});
afterAll(async () => {
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function exportPage(ref: string, name: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const out = join(scratch, name);
  const result = await runCli(['export', ref, '--format', 'html', '--out', out], { env });
  expect(result.stderr).toContain(`wrote ${out}`);
  expect(result.code).toBe(0);
  return out;
}

/** The number of the event the page shows: the one `tenet replay` shows and `fork --at` takes. */
const stepOf = async (page: Page) => Number(/event (\d+) of/.exec((await page.textContent('#position')) ?? '')?.[1]);

/** Whether the current card's top is on the screen, below the sticky controls. */
const currentOnScreen = (page: Page) =>
  page.evaluate(`(() => {
    const box = document.querySelector('.card.current').getBoundingClientRect();
    return box.top >= document.querySelector('nav.controls').getBoundingClientRect().bottom - 1 && box.top < window.innerHeight;
  })()`);

/** Clicks "step forward" until the current card matches (and is scrolled to); fails if the end comes first. */
async function forwardTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await page.locator(`.card.current${selector}`).count()) {
      await expect.poll(() => currentOnScreen(page)).toBe(true);
      return;
    }
    const before = await stepOf(page);
    await page.click('#forward');
    if ((await stepOf(page)) === before) break;
  }
  throw new Error(`no step shows ${selector}`);
}

/** The demo session's events, to edit into other sessions. */
const demoEvents = () =>
  readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Writes events as a session log (sequence numbers anew; an inserted event takes the time of the one before). */
function writeLog(name: string, events: Record<string, unknown>[]): string {
  const log = join(scratch, name);
  let ts: unknown;
  writeFileSync(
    log,
    `${events.map((e, i) => JSON.stringify({ ...e, v: 1, seq: i + 1, ts: (ts = e.ts ?? ts) })).join('\n')}\n`,
  );
  return log;
}

describeBrowser('the exported page of the demo session, in chromium', () => {
  it('plays, steps to a tool call with its output, shows a submission diff and the result, offline', async () => {
    const file = await exportPage('demo', 'demo.html');
    const url = pathToFileURL(file).href;
    const page = await browser.context.newPage();
    const seen = watch(page);
    await page.goto(url);

    await expect.poll(() => page.textContent('header.top h1')).toBe('invoicing/tax.py::tax_for');
    expect(await stepOf(page)).toBe(1);
    // A link to an event opens there, its card on the screen: the events are numbered as `tenet
    // replay` and `fork --at` number them (issue 37.10), 62 being the validation of the first submission.
    expect(demoEvents()[61]).toMatchObject({ seq: 62, type: 'agent.phase', phase: 'validate' });
    const linked = await browser.context.newPage();
    await linked.goto(`${url}#event=62`);
    expect(await stepOf(linked)).toBe(62);
    expect(await linked.textContent('#position')).toContain('event 62 of 113 · agent.phase');
    await expect.poll(() => currentOnScreen(linked)).toBe(true);
    // The address follows a move, by event number.
    await linked.keyboard.press('ArrowRight');
    await expect.poll(() => linked.evaluate('location.hash')).toBe(`#event=${await stepOf(linked)}`);
    expect(await stepOf(linked)).toBeGreaterThan(62);
    // An event that is not a stop of its own (streamed text) opens at the stop that shows it.
    expect(demoEvents()[42]).toMatchObject({ seq: 43, type: 'model.delta' });
    await linked.goto(`${url}#event=43`);
    await linked.reload();
    expect(await stepOf(linked)).toBe(44);
    await linked.close();

    // Play: the position moves by itself; pause stops it.
    await page.click('#play');
    await expect.poll(() => stepOf(page), { timeout: 15_000 }).toBeGreaterThan(2);
    // Paused from the keyboard (`k`): a click lands where the button was when the click was aimed,
    // and on a busy machine the page may still be scrolling to the card it just showed.
    await page.keyboard.press('k');
    await expect.poll(() => page.getAttribute('#play', 'aria-label')).toBe('play (Space)');
    const paused = await stepOf(page);
    await page.waitForTimeout(1200);
    expect(await stepOf(page)).toBe(paused);

    // Back to the start, then step forward to the first tool call: its whole output is on the page.
    await page.click('#first');
    await forwardTo(page, '[data-kind="tool"]:has(.result)');
    const tool = page.locator('.card.current');
    expect(await tool.locator('.tool-name').textContent()).toBe('search_target_usage');
    await expect
      .poll(() => tool.locator('.result pre').textContent())
      .toContain('Found 6 calls of invoicing/tax.py::tax_for');
    expect(await tool.locator('.result pre').textContent()).toContain('def largest_taxes(amounts, region, count=3):');

    // Step back and forward again: the keyboard moves the same position.
    const atTool = await stepOf(page);
    await page.keyboard.press('ArrowLeft');
    expect(await stepOf(page)).toBeLessThan(atTool);
    await page.keyboard.press('ArrowRight');
    expect(await stepOf(page)).toBe(atTool);

    // The first submission, as a diff against the stub.
    await forwardTo(page, '[data-kind="submission"]');
    const submission = page.locator('.card.current');
    expect(await submission.locator('header').textContent()).toContain('against the stub');
    await expect
      .poll(() => submission.locator('.dl.del').allTextContents())
      .toContainEqual(expect.stringContaining('raise NotImplementedError'));
    expect(await submission.locator('.dl.add').allTextContents()).toContainEqual(
      expect.stringContaining('rates = RATES[region]'),
    );
    // The validation that follows, in the test grid: one of the three selected tests fails.
    await forwardTo(page, '[data-kind="tests"]');
    expect(await page.locator('.card.current header').textContent()).toContain('2/3 passed');
    expect(await page.locator('.card.current .grid-row.fail .test').allTextContents()).toEqual([
      'test_region_is_case_insensitive',
    ]);

    // The second submission is compared with the first, not with the stub.
    await page.keyboard.press('s');
    const second = page.locator('.card.current');
    expect(await second.locator('header').textContent()).toContain('against the previous submission');
    await expect
      .poll(() => second.locator('.dl.add').allTextContents())
      .toEqual([expect.stringContaining('rates = RATES[region.upper()]')]);

    // Scrub to the end (the scrubber's own End key): the result, the patch, the sidebar's verdict.
    await page.focus('#scrubber');
    await page.keyboard.press('End');
    const result = page.locator('.card.current');
    await expect.poll(() => result.getAttribute('data-kind')).toBe('result');
    expect(await result.locator('h3').textContent()).toContain('PASS');
    expect(await result.locator('.facts').textContent()).toContain('9/9 pass');
    await expect
      .poll(() => result.locator('.patch').textContent())
      .toContain('+    rates = RATES[region.upper()]'.slice(1));
    await expect.poll(() => page.textContent('#side')).toContain('Finished');
    expect(await page.locator('.card.kind-patch h3').textContent()).toBe('The patch was saved, not applied');

    await page.screenshot({ path: screenshotPath('session-page-demo.png') });
    // Everything the page needed was in the file: no request but the page itself.
    expect(seen.requests).toEqual([url]);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('a TDD session shows the agent’s tests as versions with diffs, and its own test runs in the grid', async () => {
    const sessions = join(scratch, 'tdd-sessions');
    const env = {
      TENET_SESSIONS_DIR: sessions,
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
      XDG_CONFIG_HOME: '/nonexistent',
    };
    // The TDD demo's script, without the quality measures at the end (a mutation run the page does not need).
    const repo = join(scratch, 'invoicing');
    cpSync(join(ROOT, 'examples', 'invoicing'), repo, { recursive: true });
    const script = join(ROOT, 'examples', 'invoicing.tdd.json');
    const run = await runCli(
      [
        'run',
        '--repo',
        repo,
        '--target',
        'invoicing/tax.py::tax_for',
        '--strategy',
        'tdd',
        '--provider',
        'scripted',
        '--script',
        script,
        '--no-test-quality',
        '--headless',
      ],
      { env },
    );
    expect(run.code).toBe(0);
    const file = await exportPage('last', 'tdd.html', env);
    const url = pathToFileURL(file).href;
    const page = await browser.context.newPage();
    const seen = watch(page);
    await page.goto(url);

    await forwardTo(page, '[data-kind="tests-submission"]');
    expect(await page.locator('.card.current header').textContent()).toContain("The agent's tests, version 1");
    expect(await page.locator('.card.current header').textContent()).toContain('against the nothing (a new file)');
    // The agent's run_tests: its grid is in the tool call's card, one test failing.
    await forwardTo(page, '[data-kind="tool"] .attached-run');
    expect(await page.locator('.card.current .attached-run .label').textContent()).toBe('5/6 passed');
    await forwardTo(page, '[data-kind="tests-submission"]');
    expect(await page.locator('.card.current header').textContent()).toContain("The agent's tests, version 2");
    expect(await page.locator('.card.current header').textContent()).toContain('against the previous tests');

    await page.keyboard.press('End');
    await expect.poll(() => page.locator('.card.current').getAttribute('data-kind')).toBe('result');
    expect(await page.locator('#side table.test-grid thead').textContent()).toContain('A1');
    await page.screenshot({ path: screenshotPath('session-page-tdd.png') });
    expect(seen.requests).toEqual([url]);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('model and tool output that carries markup is shown as text: nothing runs, nothing is fetched', async () => {
    const events = demoEvents();
    const attack =
      '</script><script>window.__pwned = 1; alert(1)</script><img src="https://example.invalid/x.png" onerror="window.__pwned = 2">';
    const firstResult = events.find((e) => e.type === 'tool.result')!;
    firstResult.text = `before ${attack} \u001b[31mred\u001b[0m \u0007bell \u202eevil after`;
    events.find((e) => e.type === 'model.response')!.content = `Look: ${attack}`;
    // An event type this page was written before: shown generically, as the developer's. And a
    // developer's message, which the page knows: its text is text too.
    const at = events.findIndex((e) => e.type === 'agent.phase');
    events.splice(at, 0, { type: 'review.comment', who: 'human', text: `Please check ${attack}` });
    const request = events.findIndex((e) => e.type === 'model.request');
    events.splice(request, 0, { type: 'developer.message', text: `Mind ${attack}`, round: 1, via: 'file' });
    const file = await exportPage(writeLog('hostile.jsonl', events), 'hostile.html');
    const url = pathToFileURL(file).href;
    const page = await browser.context.newPage();
    const seen = watch(page);
    await page.goto(url);

    await page.click('#last');
    await page.locator('.card[data-kind="unknown"]').scrollIntoViewIfNeeded();
    const message = page.locator('.card[data-kind="unknown"]');
    expect(await message.locator('h3').textContent()).toBe('Review comment');
    expect(await message.getAttribute('class')).toContain('tone-human');
    expect(await message.locator('.prose').textContent()).toBe(`Please check ${attack}`);
    const told = page.locator('.card[data-kind="message"]');
    await told.scrollIntoViewIfNeeded();
    expect(await told.locator('h3').textContent()).toBe('The developer wrote to the model');
    expect(await told.locator('.meta').textContent()).toBe('with request 1 · from the message file');
    expect(await told.getAttribute('class')).toContain('tone-human');
    expect(await told.locator('.prose').textContent()).toBe(`Mind ${attack}`);
    const tool = page.locator('.card[data-kind="tool"]').first();
    await tool.scrollIntoViewIfNeeded();
    await expect
      .poll(() => tool.locator('.result pre').textContent())
      .toBe(`before ${attack} red ␇bell <U+202E>evil after`);
    expect(await page.locator('.card[data-kind="turn"] .prose').first().textContent()).toBe(`Look: ${attack}`);

    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(2);
    expect(seen.dialogs).toEqual([]);
    expect(seen.requests).toEqual([url]);
    expect(seen.errors).toEqual([]);
    expect(statSync(file).size).toBeGreaterThan(0);
    await page.close();
  });
  it("the developer's decisions are cards of their own, marked as the developer's, and `d` goes from one to the next", async () => {
    const events = demoEvents();
    const approval = events.find((e) => e.type === 'thm.approval')!;
    const proposed = approval.proposed as string[];
    Object.assign(approval, { by: 'human', chosen: [proposed[0], 'tests/test_tax.py::test_gross'] });
    const debuggerCall = events.findIndex((e) => e.type === 'tool.call' && e.name === 'run_debugger_cmd');
    events.splice(debuggerCall + 1, 0, {
      type: 'command.approval',
      command: 'python -m pytest tests/test_tax.py --pdb',
      decision: 'denied',
      by: 'human',
      reason: 'run only the failing test',
    });
    const round6 = events.findIndex((e) => e.type === 'model.request' && e.round === 6);
    const output = "{'standard': 20, 'reduced': 5, 'exempt': 0}\n(Pdb) ";
    events.splice(
      round6,
      0,
      { type: 'debugger.input', who: 'human', input: 'p RATES["UK"]', mode: 'pdb' },
      { type: 'debugger.output', chunk: output },
      {
        type: 'debugger.entry',
        entry: {
          who: 'human',
          input: 'p RATES["UK"]',
          output,
          mode: 'pdb',
          startedAt: 0,
          durationMs: 1,
          interrupted: false,
        },
      },
    );
    Object.assign(events.find((e) => e.type === 'patch.decision')!, { decision: 'accept', applied: true });
    const file = await exportPage(writeLog('decisions.jsonl', events), 'decisions.html');
    const page = await browser.context.newPage();
    const seen = watch(page);
    await page.goto(pathToFileURL(file).href);

    const titles: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('d');
      const card = page.locator('.card.current');
      expect(await card.getAttribute('class')).toContain('tone-human');
      titles.push((await card.locator('h3').textContent())!);
    }
    expect(titles).toEqual([
      "The developer overrode THM's choice",
      'The developer refused the command',
      'The developer typed in the debugger',
      'The patch was accepted',
    ]);
    const choice = page.locator('.card[data-kind="approval"]');
    expect(await choice.locator('li.added').textContent()).toContain('tests/test_tax.py::test_gross');
    expect(await choice.locator('li.dropped').allTextContents()).toHaveLength(2);
    expect(await page.locator('.card[data-kind="command"] .body').textContent()).toContain(
      'Reason: run only the failing test',
    );
    expect(await page.locator('.card[data-kind="human-debugger"] .typed.human').textContent()).toBe(
      '(Pdb) p RATES["UK"]',
    );
    expect(await page.locator('.card[data-kind="patch"] .body').textContent()).toContain(
      'It went into the developer’s checkout.',
    );
    // The sidebar's grid puts the developer's choice first.
    expect(await page.locator('#side tbody th.chosen').allTextContents()).toEqual([
      'test_reduced_rate_rounds_half_up',
      'test_gross',
    ]);
    expect(seen.errors).toEqual([]);
    await page.close();
  });
  it('steering is on the page where it happened: the developer’s tests, a step pause, an edited call, a spend limit, a fork’s parentage', async () => {
    const events = demoEvents();
    const report = (events.find((e) => e.type === 'thm.report')!.report as { failing: Record<string, unknown>[] })
      .failing[0]!;
    const mine = { ...report, nodeid: 'tests/test_by_developer.py::test_half_up' };
    events.splice(1, 0, {
      type: 'session.forked',
      parent: '20261201-000000-aaaaaa',
      at: 41,
      recorded: 2,
      provider: 'openai',
      model: 'gpt-4o',
    });
    const approval = events.findIndex((e) => e.type === 'thm.approval');
    events.splice(approval, 0, {
      type: 'tests.added',
      files: [{ path: 'tests/test_by_developer.py', content: 'def test_half_up():\n    assert tax_for(1) == 0.2\n' }],
      accepted: [mine],
      rejected: [
        {
          nodeid: 'tests/test_by_developer.py::test_noop',
          reason: 'it passes on the stub, so it says nothing about the function',
        },
      ],
      removed: [],
    });
    const call = events.findIndex((e) => e.type === 'tool.call');
    const { id, name, arguments: original } = events[call] as { id: string; name: string; arguments: string };
    events.splice(call, 0, { type: 'step.pause', before: 'tool', callId: id, name });
    events.splice(call + 2, 0, { type: 'tool.edit', id, name, original, arguments: '{"n":5}' });
    events.splice(
      events.findIndex((e) => e.type === 'agent.phase' && e.phase === 'evaluate'),
      0,
      { type: 'limit.reached', limit: 'cost', spent: 1.02, max: 1 },
    );
    // Notes of their own (unknown cards before every event type had to name its card).
    const condensed: EventOf<'context.condensed'> = {
      type: 'context.condensed',
      round: 2,
      why: 'stage',
      level: 1,
      replaced: [],
      kinds: { toolOutputs: 1, submissions: 0, prompts: 0, answers: 0 },
      tokensBefore: 900,
      tokensAfter: 600,
    };
    events.splice(call, 0, condensed, {
      type: 'model.unanswered',
      reason: 'cancelled',
      usage: { inputTokens: 5, outputTokens: 1 },
      costUsd: 0.0012,
      durationMs: 3,
    });
    events.push({ type: 'tests.kept', file: 'tests/test_by_agent.py' });
    const file = await exportPage(writeLog('steering.jsonl', events), 'steering.html');
    const page = await browser.context.newPage();
    const seen = watch(page);
    await page.goto(pathToFileURL(file).href);
    await page.click('#last');

    const tests = page.locator('.card[data-kind="developer-tests"]');
    await tests.scrollIntoViewIfNeeded();
    expect(await tests.locator('h3').textContent()).toBe('The developer wrote tests');
    expect(await tests.locator('.meta').textContent()).toBe('1 joined · 1 kept out');
    expect(await tests.locator('li.added').textContent()).toContain('tests/test_by_developer.py::test_half_up');
    expect(await tests.locator('li.dropped').textContent()).toContain('it passes on the stub');
    expect(await tests.getAttribute('class')).toContain('tone-human');
    const tool = page.locator(`.card[data-kind="tool"]`).first();
    await tool.scrollIntoViewIfNeeded();
    expect(await tool.locator('.chip.human').textContent()).toBe('edited by the developer');
    expect(await tool.locator('.edited .note').textContent()).toContain(
      'The developer changed the arguments before it ran',
    );
    expect(await page.locator('.card[data-kind="step"] h3').first().textContent()).toBe(
      `Step mode: paused before the ${name} call`,
    );
    const notes = await page.locator('.card[data-kind="note"] h3').allTextContents();
    expect(notes).toContain("Stopped: the session's cost limit is reached ($1.0200 of $1.0000): no more model calls");
    expect(notes).toContain(condensedWords(condensed));
    expect(notes).toContain('The model call was cancelled; what it used was billed all the same ($0.0012)');
    expect(notes).toContain("The agent's tests were kept in the checkout: tests/test_by_agent.py");
    expect(notes).toContain(
      "Forked from session 20261201-000000-aaaaaa at its event 41: the first 2 model answers are that session's, then openai/gpt-4o answers live",
    );
    // `d` reaches the developer's tests and the edit among the decisions.
    await page.click('#first');
    const seenTitles: string[] = [];
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('d');
      seenTitles.push((await page.locator('.card.current h3').textContent())!);
    }
    expect(seenTitles[0]).toBe('The developer wrote tests');
    expect(seenTitles.some((t) => t.startsWith(name))).toBe(true);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it("the developer's edit of a submission's code is a diff against the model's code, not a JSON string (issue 37.1)", async () => {
    const events = demoEvents();
    const call = events.findIndex((e) => e.type === 'tool.call' && e.name === 'submit_implementation');
    const { id, name, arguments: original } = events[call] as { id: string; name: string; arguments: string };
    const code = (JSON.parse(original) as { code: string }).code.replace(
      'rates = RATES[region]',
      'rates = RATES[region.upper()]  # the developer',
    );
    events.splice(call, 0, { type: 'step.pause', before: 'tool', callId: id, name });
    events.splice(call + 2, 0, { type: 'tool.edit', id, name, original, arguments: JSON.stringify({ code }) });
    const file = await exportPage(writeLog('code-edit.jsonl', events), 'code-edit.html');
    const page = await browser.context.newPage();
    const seen = watch(page);
    await page.goto(pathToFileURL(file).href);
    await page.click('#last');
    const tool = page.locator('.card[data-kind="tool"]', { has: page.locator('.chip.human') });
    await tool.scrollIntoViewIfNeeded();
    const edited = tool.locator('.edited');
    expect(await edited.locator('.note').first().textContent()).toBe(
      "The developer changed the model's code before it ran (+1 −1); it ran with theirs:",
    );
    await expect
      .poll(() => edited.locator('.dl.add').allTextContents())
      .toEqual([expect.stringContaining('rates = RATES[region.upper()]  # the developer')]);
    expect(await edited.locator('.dl.del').allTextContents()).toEqual([
      expect.stringContaining('rates = RATES[region]'),
    ]);
    // The rest of the function is there as code, a line per line.
    expect(await edited.locator('.dl.ctx').allTextContents()).toContainEqual(
      expect.stringContaining('def tax_for(amount, region, category="standard"):'),
    );
    expect(await edited.locator(':scope > div').first().textContent()).not.toContain('\\n');
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});
