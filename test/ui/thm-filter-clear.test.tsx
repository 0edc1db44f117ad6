import { describe, expect, it } from 'vitest';
import { initialReview, refiltered } from '../../source/ui/screens/thm-review';
import { pickerRows } from '../../source/ui/screens/thm-picker';
import { bigClusterReport, frameShows, KEYS, until } from './helpers';
import { reviewOn } from './thm-review-on';

// Issue 46.7: Esc clears the review's filter; the cursor went back to cluster 1 with it.

describe('clearing the THM review’s filter', () => {
  it('keeps the cursor on the row it was on, its cluster opened', () => {
    const report = bigClusterReport();
    const filter = 'case_117';
    const filtered = pickerRows(report, new Set(), filter);
    const at = filtered.findIndex((r) => r.kind === 'test');
    const cleared = refiltered({ ...initialReview, cursor: at }, report, filter, '');
    const rows = pickerRows(report, cleared.expanded!, '');
    expect(rows[cleared.cursor]).toMatchObject({ kind: 'test', nodeid: expect.stringContaining('case_117') });
  });

  it('on screen: / then a test’s name, ↓ onto it, Esc: still on that test', async () => {
    const report = bigClusterReport();
    const { ui } = reviewOn(report);
    await frameShows(ui.lastFrame, 'Selected 2 (T=2)');
    ui.stdin.write('/');
    await frameShows(ui.lastFrame, 'filter clusters and tests');
    for (const char of 'case_117') ui.stdin.write(char);
    await frameShows(ui.lastFrame, '1 test matches');
    ui.stdin.write(KEYS.enter); // keeps the filter; the keys are the list's again
    await frameShows(ui.lastFrame, '/ edits · Esc clears');
    ui.stdin.write(KEYS.down);
    await frameShows(ui.lastFrame, 'test 117/236 of its cluster');
    ui.stdin.write(KEYS.escape); // clears the filter
    await frameShows(ui.lastFrame, /❯ .*case_117/);
    expect(ui.lastFrame()).toContain('test 117/236 of its cluster');
    ui.unmount();
  });

  it('keys typed right after /, before the field is drawn, go in the filter (none lost to the list)', async () => {
    const report = bigClusterReport();
    const { ui } = reviewOn(report);
    await frameShows(ui.lastFrame, 'Selected 2 (T=2)');
    // One chunk per key, all before React draws again: the field opens but does not listen yet.
    for (const char of '/case_117') ui.stdin.write(char);
    await frameShows(ui.lastFrame, '1 test matches');
    ui.stdin.write(KEYS.escape); // clears the text; the field stays
    await until(() => !ui.lastFrame()!.includes('1 test matches'));
    expect(ui.lastFrame()).toContain('filter clusters and tests · Enter keeps it');
    ui.stdin.write(KEYS.escape); // closes the field
    await until(() => !ui.lastFrame()!.includes('Enter keeps it'));
    expect(ui.lastFrame()).toContain('cluster 2/2');
    ui.unmount();
  });
});
