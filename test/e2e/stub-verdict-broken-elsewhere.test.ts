import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBrowser, openBrowser, watch } from '../helpers/browser';
import { runCli } from '../helpers/cli';
import { GEO_SUBMISSIONS, geoWithStubs, runGeo, stoppedIn } from '../helpers/stub-geo';

// Issue 45, item 0: a failure that exists whatever the target's body (a helper's own test failing
// with ValueError, a test module that does not import) never called the target. Before, stub mode
// made each a hidden test of the target (`hidden 0/2`), and no body could pass. Here perimeter is
// the repository's only stub.
const repo = geoWithStubs(['perimeter'], { alone: true });
writeFileSync(join(repo.dir, 'tests', 'test_plots.py'), 'import geo_plotting_not_installed\n');
afterAll(() => repo.cleanup());

const PERIMETER = [
  'tests/test_shapes.py::test_describe_a_rectangle',
  'tests/test_shapes.py::test_describe_a_square',
  'tests/test_shapes.py::test_perimeter_of_a_rectangle',
  'tests/test_shapes.py::test_perimeter_of_a_square',
];

let passed = '';

describe('a stub beside a broken helper and a broken test module', () => {
  it('passes with the right body: the helper test is failing for another reason, the module broken', async () => {
    const run = await runGeo(repo.dir, 'geo/shapes.py::perimeter', GEO_SUBMISSIONS.perimeter.right, ['-T', '2']);
    expect(run.cli.code, run.cli.stderr).toBe(0);
    expect(run.result).toMatchObject({ pass: true, hiddenTests: { passed: 2, total: 2 } });
    // describe calls perimeter now that it has a body: its tests are perimeter's too.
    expect(run.report.failing.map((f) => f.nodeid)).toEqual(PERIMETER);
    expect(run.evaluated).toEqual(PERIMETER);
    expect(stoppedIn(run.report)).toEqual({ 'tests/test_units.py::test_metres': 'geo/units.py::parse_length' });
    expect(run.report.otherFailures?.[0]).toMatchObject({
      outcome: 'failed',
      message: expect.stringContaining('ValueError'),
      stoppedAt: { name: 'geo/units.py::parse_length', line: 9 },
    });
    expect(run.report.importErrors).toEqual([
      expect.objectContaining({ module: 'tests/test_plots.py', broken: true, kind: 'missing-module' }),
    ]);
    expect(run.hidden).not.toContain('tests/test_units.py::test_metres');
    passed = run.result.sessionId;
  }, 120_000);

  it('fails with a wrong body', async () => {
    const run = await runGeo(repo.dir, 'geo/shapes.py::perimeter', GEO_SUBMISSIONS.perimeter.wrong, ['-T', '2']);
    expect(run.cli.code).toBe(1);
    expect(run.result.pass).toBe(false);
    expect(run.evaluated).toEqual(PERIMETER);
    expect(Object.values(run.result.tests)).not.toContain('passed');
  }, 120_000);

  it('a scope where every failing test fails for another reason gives nothing to generate against, and says where they stop', async () => {
    const result = await runCli(
      [
        'run',
        '--repo',
        repo.dir,
        '--target',
        'geo/shapes.py::perimeter',
        '--provider',
        'openai',
        '--headless',
        '--tests',
        'tests/test_units.py',
      ],
      { env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } },
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('THM: 2 tests · 0 failing (0 unreached) · 1 failing for another reason');
    expect(result.stdout).toContain(
      '    tests/test_units.py::test_metres: stops in geo/units.py::parse_length (line 9)',
    );
    expect(result.stderr).toContain(
      'tenet: No failing test reaches geo/shapes.py::perimeter: the one failing test, tests/test_units.py::test_metres, stops in geo/units.py::parse_length (line 9). A test that never calls it cannot tell whether it works.',
    );
  }, 60_000);
});

describeBrowser("the session page's THM card", () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(async () => browser?.close());

  it('shows the test failing for another reason apart, with where it stopped', async () => {
    expect(passed, 'the passing run above').not.toBe('');
    const out = join(repo.dir, '..', 'page.html');
    const exported = await runCli(['export', passed, '--format', 'html', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const page = await browser.context.newPage();
    const seen = watch(page);
    await page.goto(pathToFileURL(out).href);
    const card = page.locator('.card.current');
    for (let i = 0; i < 100 && !((await card.textContent()) ?? '').includes('failing for another reason'); i++)
      await page.click('#forward');
    const text = (await card.textContent()) ?? '';
    expect(text).toContain("1 test failing for another reason (not the target's; left out of the verdict)");
    expect(text).toContain('tests/test_units.py::test_metres stops in geo/units.py::parse_length (line 9): ');
    expect(seen.errors).toEqual([]);
  }, 60_000);
});
