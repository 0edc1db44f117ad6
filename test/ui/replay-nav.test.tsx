import type { Key } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import { loadEvents } from '../../source/engine/session/event-log';
import { ReplayCursor } from '../../source/ui/replay';
import { replayInput, replayKey, type ReplayNav } from '../../source/ui/replay-keys';
import { ReplayScreen } from '../../source/ui/screens/replay-screen';
import { SessionsScreen } from '../../source/ui/screens/sessions-screen';
import { ROOT } from '../helpers/fixtures';
import { frameShows, KEYS, until } from './helpers';

// Issue 37.10: the replay's keys. The reducer is tested without rendering; the screen once each.

// Each test's screens end with it: one left mounted still takes the keys and timers of the next.
afterEach(cleanup);

const demo = loadEvents(join(ROOT, 'sessions', 'demo', 'events.jsonl')).events;
const cursor = new ReplayCursor(demo);
const noKey: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};
const key = (name?: keyof Key): Key => ({ ...noKey, ...(name ? { [name]: true } : {}) });
const start: ReplayNav = { at: 0, playing: true, speed: 1 };

/** The state after each of `keys` (a character, or a named key) in turn. */
function press(nav: ReplayNav, ...keys: (string | keyof Key)[]): ReplayNav {
  for (const k of keys) {
    const named = k.length > 1 && k in noKey;
    nav = replayKey(nav, named ? '' : k, key(named ? (k as keyof Key) : undefined), cursor)?.nav ?? nav;
  }
  return nav;
}

/** The position after the event of this type (the `nth` one). */
const eventAfter = (type: string, nth = 1, phase?: string) => {
  let seen = 0;
  return (
    demo.findIndex((e) => e.type === type && (!phase || (e as { phase?: string }).phase === phase) && ++seen === nth) +
    1
  );
};

describe('the replay keys (reducer)', () => {
  it('r stops at the THM review and at pre-generation before validation; R goes back the same way', () => {
    const stops = [press(start, 'r')];
    while (stops.at(-1)!.at < demo.length) {
      const next = press(stops.at(-1)!, 'r');
      if (next.notice) break;
      stops.push(next);
    }
    const at = stops.map((s) => s.at);
    expect(at.slice(0, 3)).toEqual([
      eventAfter('thm.report'),
      eventAfter('agent.phase', 1, 'pregen'),
      eventAfter('agent.phase', 1, 'validate'),
    ]);
    expect(at.at(-1)).toBe(eventAfter('agent.phase', 1, 'evaluate'));
    expect(stops.every((s) => !s.playing)).toBe(true);
    // Shift goes back through the same stages.
    expect(press({ ...start, at: eventAfter('agent.phase', 1, 'validate') }, 'R').at).toBe(
      eventAfter('agent.phase', 1, 'pregen'),
    );
    expect(press({ ...start, at: eventAfter('agent.phase', 1, 'pregen') }, 'R').at).toBe(eventAfter('thm.report'));
    expect(press({ ...start, at: eventAfter('thm.report') }, 'R')).toMatchObject({
      at: eventAfter('thm.report'),
      notice: 'no earlier stage',
    });
  });

  it('N and T jump back to the previous tool call and test run; at the end of the line a notice, not a move', () => {
    const secondRun = eventAfter('tests.run', 2);
    expect(press({ ...start, at: secondRun }, 'T').at).toBe(eventAfter('tests.run', 1));
    expect(press({ ...start, at: eventAfter('tool.call', 2) }, 'N').at).toBe(eventAfter('tool.call', 1));
    expect(press({ ...start, at: eventAfter('tool.call', 1) }, 'N')).toMatchObject({
      at: eventAfter('tool.call', 1),
      notice: 'no earlier tool call',
    });
    expect(press({ ...start, at: demo.length }, 't')).toMatchObject({ at: demo.length, notice: 'no later test run' });
    // The notice goes with the next key.
    expect(press({ ...start, at: demo.length }, 't', 'leftArrow').notice).toBeUndefined();
  });

  it('Home and End go to the ends; g and a number go to that event; a number the session lacks is said', () => {
    expect(press({ ...start, at: 50 }, 'home')).toEqual({ at: 0, playing: false, speed: 1 });
    expect(press(start, 'end').at).toBe(demo.length);
    expect(press(start, 'g', '6', '2', 'return')).toEqual({ at: 62, playing: false, speed: 1 });
    expect(cursor.eventAt(62)).toBe(62);
    // Backspace takes back a digit; Esc gives up where it was.
    expect(press(start, 'g', '6', '9', 'backspace', '3', 'return').at).toBe(63);
    expect(press({ ...start, at: 5 }, 'g', '4', 'escape')).toEqual({ at: 5, playing: false, speed: 1 });
    // While typing, keys are digits, not jumps: r does not move.
    expect(press(start, 'g', 'r', '7')).toMatchObject({ at: 0, goto: '7' });
    expect(press(start, 'g', '9', '9', '9', 'return')).toMatchObject({
      at: 0,
      notice: `no event 999: this session's events are 1 to ${demo.length}`,
    });
  });

  it("→ and ← step over THM's progress through the tests in one step", () => {
    const firstProgress = demo.findIndex((e) => e.type === 'thm.collecting');
    const report = eventAfter('thm.report');
    // From just before the progress, one → shows it all; the next shows the review.
    const through = press({ ...start, at: firstProgress }, 'rightArrow');
    expect(through.at).toBe(report - 1);
    expect(press(through, 'rightArrow').at).toBe(report);
    expect(press(through, 'leftArrow').at).toBe(firstProgress);
    // Outside THM's progress every event is a step.
    expect(press({ ...start, at: 70 }, 'rightArrow').at).toBe(71);
  });

  it('a chunk of keys (typed faster than the terminal is read) counts every key, a newline as Enter; it stops at one that opens something', () => {
    expect(replayInput(start, 'g62\r', key(), cursor)).toEqual({ nav: { at: 62, playing: false, speed: 1 } });
    expect(replayInput(start, 'g69\x7f3\r', key(), cursor)!.nav.at).toBe(63);
    expect(replayInput({ ...start, at: 10 }, 'fy', key(), cursor)).toEqual({
      nav: { at: 10, playing: true, speed: 1 },
      open: 'fork',
    });
    expect(replayInput(start, 'rq', key(), cursor)).toMatchObject({
      nav: { at: eventAfter('thm.report') },
      back: true,
    });
  });

  it('space at the end plays from the start again', () => {
    expect(press({ at: demo.length, playing: true, speed: 1 }, ' ')).toEqual({ at: 0, playing: true, speed: 1 });
    expect(press({ at: 10, playing: true, speed: 1 }, ' ')).toEqual({ at: 10, playing: false, speed: 1 });
  });
});

/** The demo with THM's progress as a real suite records it: 780 tests, each with its progress events, 5 ms apart. */
function bigThm(): (EngineEvent & { ts: string; seq: number })[] {
  const first = demo.findIndex((e) => e.type === 'thm.collecting');
  const last = demo.findIndex((e) => e.type === 'thm.report');
  const t0 = Date.parse(demo[first]!.ts);
  const progress = Array.from({ length: 780 }, (_, i) => ({
    type: 'thm.test' as const,
    phase: 'probe' as const,
    nodeid: `tests/test_more.py::test_${i}`,
    outcome: 'passed',
    reached: false,
    durationMs: 1,
    ts: new Date(t0 + 5 * i).toISOString(),
  }));
  const events = [
    ...demo.slice(0, first),
    { type: 'thm.collected', phase: 'probe', total: 780, ts: demo[first]!.ts },
    ...progress,
    ...demo.slice(last),
  ] as (EngineEvent & { ts: string })[];
  return events.map((e, i) => ({ ...e, seq: i + 1 }));
}

describe('the replay screen', () => {
  it("plays THM's 780 progress events as one step: the review is a few steps from the start", async () => {
    const events = bigThm();
    const big = new ReplayCursor(events);
    const review = events.findIndex((e) => e.type === 'thm.report') + 1;
    expect(big.stops.filter((s) => s <= review).length).toBeLessThan(10);
    const { stdin, lastFrame } = render(
      <ReplayScreen id="big" events={events} onBack={() => undefined} autoplay={false} />,
    );
    await frameShows(lastFrame, `event 0/${events.length}`);
    // Before, each → showed one more test done: the review was 780 keys away.
    for (let i = 0; i < 6 && !lastFrame()!.includes('Selected'); i++) {
      const shown = /event (\d+)\//.exec(lastFrame()!)![1];
      stdin.write(KEYS.right);
      await until(
        () => /event (\d+)\//.exec(lastFrame()!)![1] !== shown,
        () => lastFrame()!,
      );
    }
    expect(lastFrame()).toContain('Selected');
    expect(lastFrame()).toContain(`event ${review}/`);
  });

  it('r from the start shows the THM review, then pre-generation; Home, End and g move; --at opens paused at an event', async () => {
    const { stdin, lastFrame } = render(
      <ReplayScreen id="demo" events={demo} onBack={() => undefined} autoplay={false} />,
    );
    await frameShows(lastFrame, `event 0/${demo.length}`);
    stdin.write('r');
    await frameShows(lastFrame, `event ${eventAfter('thm.report')}/${demo.length}`);
    expect(lastFrame()).toContain('Selected');
    stdin.write('r');
    await frameShows(lastFrame, `event ${eventAfter('agent.phase', 1, 'pregen')}/${demo.length}`);
    expect(lastFrame()).toMatch(/pre-generation/i);
    stdin.write(KEYS.end);
    await frameShows(lastFrame, 'PASS: 3/3 selected passed');
    stdin.write(KEYS.home);
    await frameShows(lastFrame, `event 0/${demo.length}`);
    stdin.write('g');
    await frameShows(lastFrame, 'go to event: ▏');
    for (const c of '62') stdin.write(c);
    await frameShows(lastFrame, 'go to event: 62▏');
    stdin.write(KEYS.enter);
    await frameShows(lastFrame, `event 62/${demo.length} · ⏸`);
    // Typed faster than the terminal is read, the keys come as one chunk: each counts.
    stdin.write('g45');
    await frameShows(lastFrame, 'go to event: 45▏');
    stdin.write(KEYS.enter);
    await frameShows(lastFrame, `event 45/${demo.length} · ⏸`);
    stdin.write('?');
    await frameShows(lastFrame, 'go to an event');

    const opened = render(
      <ReplayScreen id="demo" events={demo} onBack={() => undefined} at={eventAfter('tests.run')} />,
    );
    await frameShows(opened.lastFrame, `event ${eventAfter('tests.run')}/${demo.length} · ⏸`);
    expect(opened.lastFrame()).toContain('selected tests: 2/3 passed');
  });

  it('the sessions browser, back from a fork made in a replay, opens that replay at the fork’s event; q goes back to the list', async () => {
    const rows = [
      {
        id: 'demo',
        created: '2',
        updated: '2',
        repo: '/r',
        target: 'invoicing/tax.py::tax_for',
        strategy: 'tenet',
        provider: 'scripted',
        model: 'scripted',
        status: 'passed' as const,
        pass: true,
        tokens: { input: 1, output: 1 },
        costUsd: 0,
        events: 1,
        logBytes: 1,
      },
    ];
    const { stdin, lastFrame, frames } = render(
      <SessionsScreen
        rows={rows}
        load={() => ({ id: 'demo', events: demo, warnings: [], source: '' })}
        reopen={{ id: 'demo', at: 62 }}
      />,
    );
    await frameShows(lastFrame, `replay demo · event 62/${demo.length} · ⏸`);
    stdin.write('q');
    await frameShows(lastFrame, 'Sessions (1)');
    // Opened again from the list, it starts at the beginning (and plays on: a busy machine may
    // draw the next frames before this looks, so every frame since Enter is searched).
    const before = frames.length;
    stdin.write(KEYS.enter);
    await until(
      () => frames.slice(before).some((frame) => frame.includes(`replay demo · event 0/${demo.length}`)),
      () => lastFrame() ?? '',
    );
  });
});
