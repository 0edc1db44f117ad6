import { describe, expect, it } from 'vitest';
import { shortMiddle } from '../../source/ui/components/lines';
import { pickerRows, selectionOf, togglePick, noPicks } from '../../source/ui/screens/thm-picker';
import { bigClusterReport, frameShows, KEYS, until } from './helpers';
import { reviewOn } from './thm-review-on';

const review = (width = 100, height = 35) => {
  const report = bigClusterReport();
  return { ...reviewOn(report, width, height), report };
};

describe('THM review on a cluster of 236 tests', () => {
  it('PgDn, PgUp, End and Home move by a page and to the ends; the position says where', async () => {
    const { ui } = review();
    await frameShows(ui.lastFrame, 'Selected 2 (T=2)');
    ui.stdin.write(KEYS.down);
    ui.stdin.write(KEYS.down);
    ui.stdin.write(KEYS.right); // open the big cluster
    ui.stdin.write(KEYS.down);
    await frameShows(ui.lastFrame, 'test 1/236 of its cluster');
    ui.stdin.write(KEYS.pageDown);
    await frameShows(ui.lastFrame, /test (\d+)\/236 of its cluster/);
    const at = () => Number(/test (\d+)\/236 of its cluster/.exec(ui.lastFrame()!)?.[1]);
    await until(
      () => at() > 5,
      () => ui.lastFrame()!,
    );
    const page = at() - 1;
    expect(ui.lastFrame()).toMatch(new RegExp(`❯ .*test_wrap_text_case_${String(at()).padStart(3, '0')}`));
    ui.stdin.write(KEYS.pageDown);
    await until(
      () => at() === 1 + 2 * page,
      () => ui.lastFrame()!,
    );
    ui.stdin.write(KEYS.end);
    await frameShows(ui.lastFrame, 'test 236/236 of its cluster');
    expect(ui.lastFrame()).toMatch(/❯ .*test_wrap_text_case_236/);
    ui.stdin.write(KEYS.pageUp);
    await until(
      () => at() === 236 - page,
      () => ui.lastFrame()!,
    );
    ui.stdin.write(KEYS.home);
    await frameShows(ui.lastFrame, 'cluster 1/2');
  });

  it('long ids are cut in the middle: the file and the test name both show', async () => {
    expect(shortMiddle('tests/a/very/long/path/test_x.py::TestY::test_the_name', 30)).toBe(
      'tests/a/ver…stY::test_the_name',
    );
    const { ui } = review(80, 30);
    await frameShows(ui.lastFrame, 'Selected 2 (T=2)');
    ui.stdin.write(KEYS.down);
    ui.stdin.write(KEYS.down);
    ui.stdin.write(KEYS.right);
    await frameShows(ui.lastFrame, 'test_wrap_text_case_001 depth 2');
    expect(ui.lastFrame()).toMatch(/★ tests\/integrat.*….*test_wrap_text_case_001 depth 2/);
  });

  it('/ filters clusters and tests by text; Esc clears the filter', async () => {
    const { ui, resolve } = review();
    await frameShows(ui.lastFrame, 'Selected 2 (T=2)');
    ui.stdin.write('/');
    await frameShows(ui.lastFrame, 'filter clusters and tests');
    ui.stdin.write('case_07');
    await frameShows(ui.lastFrame, '10 tests match');
    expect(ui.lastFrame()).toContain('test_wrap_text_case_079');
    expect(ui.lastFrame()).not.toContain('test_wrap_text_case_080');
    expect(ui.lastFrame()).not.toContain('tests/test_basic.py::test_echo ·');
    ui.stdin.write(KEYS.enter); // keeps the filter; the list has the keys again
    await frameShows(ui.lastFrame, 'filter "case_07": 10 tests match');
    ui.stdin.write(KEYS.down);
    ui.stdin.write(KEYS.down);
    await frameShows(ui.lastFrame, /❯ .*test_wrap_text_case_071/);
    ui.stdin.write(KEYS.space); // picks a test found by the filter
    await frameShows(ui.lastFrame, 'Selected 3 (T=2) · changed from the proposal: 1 added by you');
    ui.stdin.write(KEYS.escape); // the whole list again, the cursor where it was (issue 46.7)
    await frameShows(ui.lastFrame, 'test 71/236 of its cluster');
    expect(ui.lastFrame()).toMatch(/❯ .*test_wrap_text_case_071/);
    ui.stdin.write(KEYS.enter);
    await until(() => resolve.mock.calls.length > 0);
    expect(resolve.mock.calls[0]![0].chosen).toContain(
      'tests/integration/formatting/test_text_wrapping_behaviour.py::TestWrapText::test_wrap_text_case_071',
    );
  });

  it("keys typed fast come as one chunk: '/case_07' opens the filter with 'case_07' in it", async () => {
    const { ui } = review();
    await frameShows(ui.lastFrame, 'Selected 2 (T=2)');
    ui.stdin.write('/case_07'); // as tmux send-keys sends it, or a fast typist
    await frameShows(ui.lastFrame, '10 tests match');
    expect(ui.lastFrame()).toContain('test_wrap_text_case_079');
    expect(ui.lastFrame()).not.toContain('test_wrap_text_case_080');
  });

  it('counts in words that agree with them: one test matches, a cluster of one test', async () => {
    const { ui } = review();
    await frameShows(ui.lastFrame, 'Selected 2 (T=2)');
    expect(ui.lastFrame()).toContain('tests/test_basic.py::test_echo · 1 test · depth 1');
    ui.stdin.write('/');
    await frameShows(ui.lastFrame, 'filter clusters and tests');
    ui.stdin.write('case_123');
    await frameShows(ui.lastFrame, '1 test matches');
  });

  it("Esc in the filter clears its text, then closes it (the hint says so): the keys are the list's again", async () => {
    const { ui } = review();
    await frameShows(ui.lastFrame, 'Selected 2 (T=2)');
    ui.stdin.write('/');
    await frameShows(ui.lastFrame, 'Esc clears, then closes');
    ui.stdin.write('abc');
    await frameShows(ui.lastFrame, '0 tests match');
    ui.stdin.write(KEYS.escape); // the text
    await frameShows(ui.lastFrame, 'filter clusters and tests · Enter keeps it');
    ui.stdin.write(KEYS.escape); // the field
    await frameShows(ui.lastFrame, 'cluster 1/2');
    ui.stdin.write('+'); // a key of the list again, not typed into the filter
    await frameShows(ui.lastFrame, 'Selected 3 (T=3)');
  });

  it('+ and - keep the tests picked by hand, and say so', async () => {
    const { ui, resolve, report } = review();
    await frameShows(ui.lastFrame, 'Selected 2 (T=2)');
    ui.stdin.write(KEYS.down);
    ui.stdin.write(KEYS.down);
    ui.stdin.write(KEYS.right);
    for (let i = 0; i < 5; i++) ui.stdin.write(KEYS.down); // test 5: T=3 would not propose it either
    await frameShows(ui.lastFrame, 'test 5/236 of its cluster');
    ui.stdin.write(KEYS.space);
    await frameShows(ui.lastFrame, 'Selected 3 (T=2) · changed from the proposal: 1 added by you');
    ui.stdin.write('+');
    await frameShows(ui.lastFrame, 'T=3: THM proposed again, and kept your picks (1 added)');
    expect(ui.lastFrame()).toContain('· changed from the proposal: 1 added by you');
    ui.stdin.write(KEYS.enter);
    await until(() => resolve.mock.calls.length > 0);
    expect(resolve.mock.calls[0]![0]).toMatchObject({
      T: 3,
      chosen: [
        report.clusters[0]!.tests[0],
        report.clusters[1]!.tests[0],
        report.clusters[1]!.tests[1],
        report.clusters[1]!.tests[4],
      ],
    });
  });

  it('the rows and the picks as pure functions', () => {
    const report = bigClusterReport(12);
    expect(pickerRows(report, new Set(), 'case_01').filter((r) => r.kind === 'test')).toHaveLength(3);
    expect(pickerRows(report, new Set(), 'echo').map((r) => r.kind)).toEqual(['cluster', 'test']);
    const proposal = ['a', 'b'];
    const picks = togglePick(togglePick(noPicks, proposal, 'b'), proposal, 'c');
    expect(selectionOf(proposal, picks)).toEqual(['a', 'c']);
    expect(selectionOf(['a', 'b', 'd'], picks)).toEqual(['a', 'd', 'c']);
    expect(togglePick(picks, proposal, 'c')).toEqual({ added: [], removed: ['b'] });
  });
});
