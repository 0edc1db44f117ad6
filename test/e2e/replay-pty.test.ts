import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../source/engine/session/catalog';
import { runCli } from '../helpers/cli';
import { ROOT } from '../helpers/fixtures';
import { KEY, startInPty } from '../helpers/pty';

// Issue 37: `tenet replay --at N` opens at an event, and a fork made with `f` in a replay comes
// back to that replay when the fork's run ends.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-replay-pty-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const demoLength = readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8')
  .trim()
  .split('\n').length;

describe('tenet replay in a pseudo-terminal', () => {
  it('--at opens paused at the event; f forks there, and q at the fork’s result comes back to the replay at that event', async () => {
    const sessions = join(scratch, 'sessions');
    const tui = startInPty(['replay', 'demo', '--at', '62'], { TENET_SESSIONS_DIR: sessions }, { cols: 120, rows: 40 });
    await tui.waitFor(`replay demo · event 62/${demoLength} · ⏸`);
    await tui.settled();
    // Home and End move there and back in one key each.
    await tui.press(KEY.end, `event ${demoLength}/${demoLength}`);
    await tui.press(KEY.home, `event 0/${demoLength}`);
    tui.send('g');
    for (const c of '62') tui.send(c);
    await tui.press(KEY.enter, `replay demo · event 62/${demoLength} · ⏸`);
    await tui.settled();
    await tui.press('f', 'Fork demo at event 62?');
    await tui.settled();
    // The fork runs in the terminal: the recorded history, then the scripted demo model live.
    const forked = await tui.press('y', 'The agent wants to run a shell command', 120_000);
    await tui.settled();
    const allowed = await tui.press('a', 'q quit', 120_000);
    await tui.waitFor('PASS', 60_000, Math.min(forked, allowed));
    await tui.settled(500);
    await tui.press('q', `replay demo · event 62/${demoLength} · ⏸`, 30_000);
    // The fork was saved, as a fork of the demo at event 62.
    const rows = new Catalog(sessions).list();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.parent).toMatchObject({ id: 'demo', at: 62 });
    await tui.settled();
    tui.send('q');
    expect(await tui.exited).toBe(0);
  }, 240_000);

  it('Ctrl+C twice inside a fork or a resumed session ends it, not tenet: the replay or the list comes back', async () => {
    const sessions = join(scratch, 'sessions-interrupted');
    const tui = startInPty(['replay', 'demo', '--at', '62'], { TENET_SESSIONS_DIR: sessions }, { cols: 120, rows: 40 });
    await tui.waitFor(`replay demo · event 62/${demoLength} · ⏸`);
    await tui.settled();
    await tui.press('f', 'Fork demo at event 62?');
    await tui.settled();
    await tui.press('y', 'The agent wants to run a shell command', 120_000);
    await tui.settled();
    await tui.press(KEY.ctrlC, 'Press Ctrl+C again to quit');
    const quit = await tui.press(KEY.ctrlC, 'tenet resume');
    // The fork is saved as interrupted (it can be resumed), and the replay is drawn again.
    await tui.waitFor(`replay demo · event 62/${demoLength} · ⏸`, 30_000, quit);
    const rows = new Catalog(sessions).list();
    expect(rows.map((row) => [row.status, row.parent?.at])).toEqual([['interrupted', 62]]);
    await tui.settled();
    tui.send('q');
    expect(await tui.exited).toBe(0);

    // Resumed from the browser, the session goes on; Ctrl+C twice ends it again, and the list comes back.
    const browser = startInPty(['sessions'], { TENET_SESSIONS_DIR: sessions }, { cols: 120, rows: 40 });
    await browser.waitFor(rows[0]!.id);
    await browser.settled();
    await browser.press('r', `Resume session ${rows[0]!.id}?`);
    await browser.settled();
    await browser.press('y', 'The agent wants to run a shell command', 120_000);
    await browser.settled();
    await browser.press(KEY.ctrlC, 'Press Ctrl+C again to quit');
    const resumedQuit = await browser.press(KEY.ctrlC, 'tenet resume');
    await browser.waitFor('r resume', 30_000, resumedQuit);
    await browser.settled();
    browser.send('q');
    expect(await browser.exited).toBe(0);
  }, 300_000);

  it('headless, --at prints the events from that one on', async () => {
    const result = await runCli(['replay', 'demo', '--at', String(demoLength - 1), '--json']);
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { seq: number; type: string });
    expect(events.map((e) => e.seq)).toEqual([demoLength - 1, demoLength]);
    expect(events.at(-1)!.type).toBe('result');
  });
});
