import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBrowser, openBrowser, watch } from '../helpers/browser';
import { runCli } from '../helpers/cli';
import { ROOT } from '../helpers/fixtures';

// A run whose selected tests pass and whose hidden tests fail used to end on `FAIL (passed)`: the
// agent's stop reason (its selected tests passed) next to the verdict the evaluation gave. Every
// place that shows the result now says what happened.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-verdict-words-'));
const env = {
  TENET_SESSIONS_DIR: join(scratch, 'sessions'),
  OPENAI_API_KEY: '',
  ANTHROPIC_API_KEY: '',
  XDG_CONFIG_HOME: '/nonexistent',
};
const WORDS = 'the selected tests passed but hidden tests failed';
let id = '';
let stdout = '';

beforeAll(async () => {
  // The demo's first submission: right on THM's first proposed test (T=1), wrong on a region in lower case.
  const demo = JSON.parse(readFileSync(join(ROOT, 'examples', 'invoicing.demo.json'), 'utf8')) as {
    turns: { calls?: { name: string; arguments: { code?: string } }[] }[];
  };
  const code = demo.turns.flatMap((t) => t.calls ?? []).find((c) => c.name === 'submit_implementation')!.arguments
    .code!;
  const script = join(scratch, 'case-sensitive.json');
  writeFileSync(
    script,
    JSON.stringify({
      turns: [{ say: 'Submitting.', calls: [{ name: 'submit_implementation', arguments: { code } }] }],
    }),
  );
  const repo = join(scratch, 'invoicing');
  cpSync(join(ROOT, 'examples', 'invoicing'), repo, { recursive: true });
  const run = await runCli(
    [
      'run',
      '--repo',
      repo,
      '--target',
      'invoicing/tax.py::tax_for',
      '--provider',
      'scripted',
      '--script',
      script,
      '-T',
      '1',
      '--headless',
    ],
    { env },
  );
  expect(run.code, run.stderr).toBe(1);
  stdout = run.stdout;
  id = /session (\S+)/.exec(run.stdout)![1]!;
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a run that fails on the hidden tests after its selected tests passed', () => {
  it('tenet run and tenet show say that the selected tests passed and hidden ones failed', async () => {
    expect(stdout).toContain('  selected tests: 1/1 passed');
    expect(stdout).toContain(`FAIL (${WORDS}) · selected 1/1 · hidden 10/11`);
    expect(stdout).not.toContain('FAIL (passed)');
    const shown = await runCli(['show', id], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`## Result: FAIL (${WORDS})`);
    // The JSON keeps the stop reason's name: scripts read it.
    const json = await runCli(['export', id, '--format', 'json'], { env });
    expect(json.stdout).toContain('"stopReason":"passed"');
  }, 60_000);
});

describeBrowser("the session page's result", () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(async () => browser?.close());

  it('says the same on the result card and on the verdict in the header', async () => {
    const out = join(scratch, 'page.html');
    const exported = await runCli(['export', id, '--format', 'html', '--out', out], { env });
    expect(exported.code, exported.stderr).toBe(0);
    const page = await browser.context.newPage();
    const seen = watch(page);
    await page.goto(pathToFileURL(out).href);
    expect(await page.getAttribute('header.top .verdict', 'title')).toBe(`stop reason: ${WORDS}`);
    await page.focus('#scrubber');
    await page.keyboard.press('End');
    const result = page.locator('.card.current');
    await expect.poll(() => result.getAttribute('data-kind')).toBe('result');
    expect(await result.locator('h3').textContent()).toBe(`FAIL Result: ${WORDS}`);
    expect(seen.errors).toEqual([]);
  }, 60_000);
});
