import { render } from 'ink-testing-library';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadEvents } from '../../source/engine/session/event-log';
import { JUMPS, ReplayCursor, stepSpeed } from '../../source/ui/replay';
import { ReplayScreen } from '../../source/ui/screens/replay-screen';
import { SessionsScreen } from '../../source/ui/screens/sessions-screen';
import { StartScreen } from '../../source/ui/screens/start-screen';
import { reduceAll } from '../../source/ui/view-state';
import { ROOT } from '../helpers/fixtures';
import { frameShows, KEYS, settle, until } from './helpers';

const demo = loadEvents(join(ROOT, 'sessions', 'demo', 'events.jsonl')).events;

describe('replay', () => {
  it('the cursor gives the same view at any index, forward or back', () => {
    const cursor = new ReplayCursor(demo);
    const at = (i: number) => JSON.stringify(cursor.viewAt(i));
    const forward = [10, 60, demo.length].map(at);
    const back = [demo.length, 60, 10].map(at).reverse();
    expect(back).toEqual(forward);
    expect(at(60)).toBe(JSON.stringify(reduceAll(demo.slice(0, 60))));
  });

  it('steps, jumps and shows where the developer decided', async () => {
    const onBack = vi.fn();
    const { stdin, lastFrame } = render(<ReplayScreen id="demo" events={demo} onBack={onBack} autoplay={false} />);
    await frameShows(lastFrame, `replay demo · event 0/${demo.length} · ⏸ 1×`);
    stdin.write('n'); // the first tool call
    await frameShows(lastFrame, '→ search_target_usage n=3');
    stdin.write('t'); // the first test run
    await frameShows(lastFrame, 'selected tests: 2/3 passed');
    stdin.write('r'); // the refinement stage
    await frameShows(lastFrame, 'Refinement attempt 1/5: failure identification');
    stdin.write(KEYS.left);
    await frameShows(lastFrame, /event \d+\/\d+ · ⏸/);
    stdin.write('+');
    await frameShows(lastFrame, '2×');
    stdin.write('q');
    await until(() => onBack.mock.calls.length > 0);
  });

  it('+ and - from a --speed not in the list go to the nearest faster / slower one', async () => {
    expect([stepSpeed(3, 1), stepSpeed(3, -1), stepSpeed(0.5, -1), stepSpeed(Infinity, 1)]).toEqual([
      4,
      2,
      0.5,
      Infinity,
    ]);
    const { stdin, lastFrame } = render(
      <ReplayScreen id="demo" events={demo} onBack={() => undefined} autoplay={false} initialSpeed={3} />,
    );
    await frameShows(lastFrame, '⏸ 3×');
    stdin.write('+');
    await frameShows(lastFrame, '⏸ 4×');
  });

  it('r stops at every stage of a TDD session, not only at refinement attempts', () => {
    const events = [
      { type: 'agent.phase', phase: 'tdd-setup', rounds: 15 },
      { type: 'agent.phase', phase: 'tdd', round: 1, rounds: 10 },
      { type: 'agent.phase', phase: 'tdd', round: 2, rounds: 10 },
      { type: 'agent.phase', phase: 'evaluate' },
    ] as const;
    const cursor = new ReplayCursor(events);
    const stops = [cursor.next(0, JUMPS.r)];
    while (stops.at(-1)! < events.length) stops.push(cursor.next(stops.at(-1)!, JUMPS.r));
    expect(stops).toEqual([1, 2, 3, 4]);
  });

  it('plays to the end at full speed', async () => {
    const { lastFrame } = render(
      <ReplayScreen id="demo" events={demo} onBack={() => undefined} initialSpeed={Infinity} />,
    );
    await frameShows(lastFrame, `event ${demo.length}/${demo.length}`);
    expect(lastFrame()).toContain('PASS: 3/3 selected passed, 9/9 hidden passed');
  });
});

describe('sessions browser', () => {
  it('lists sessions and opens one in the replay', async () => {
    const rows = [
      {
        id: 's-old',
        created: '1',
        updated: '1',
        repo: '/r',
        target: 'a.py::f',
        strategy: 'tenet',
        provider: 'openai',
        model: 'm',
        status: 'failed' as const,
        pass: false,
        tokens: { input: 1, output: 1 },
        costUsd: 0,
        events: 1,
        logBytes: 1,
      },
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
    const load = vi.fn(() => ({ id: 'demo', events: demo, warnings: [], source: '' }));
    const { stdin, lastFrame } = render(<SessionsScreen rows={rows} load={load} />);
    await frameShows(lastFrame, 'Sessions (2)');
    expect(lastFrame()).toMatch(/❯ demo +passed/);
    stdin.write(KEYS.enter);
    await frameShows(lastFrame, 'replay demo · event');
    expect(load).toHaveBeenCalledWith('demo');
    expect(lastFrame()).toContain('replay demo · event');
  });

  it('Home and End go to the ends of a long list, PgUp and PgDn a page', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({
      id: `s-${String(i).padStart(2, '0')}`,
      created: String(i),
      updated: String(i),
      repo: '/r',
      target: 'a.py::f',
      strategy: 'tenet',
      provider: 'openai',
      model: 'm',
      status: 'failed' as const,
      pass: false,
      tokens: { input: 1, output: 1 },
      costUsd: 0,
      events: 1,
      logBytes: 1,
    }));
    const { stdin, lastFrame } = render(<SessionsScreen rows={rows} load={vi.fn()} />);
    await frameShows(lastFrame, '❯ s-59');
    stdin.write(KEYS.home);
    await frameShows(lastFrame, '❯ s-00');
    expect(lastFrame()).not.toContain('s-59');
    stdin.write(KEYS.pageDown);
    await until(() => /❯ s-(\d\d)/.exec(lastFrame() ?? '')?.[1] !== '00');
    const page = Number(/❯ s-(\d\d)/.exec(lastFrame() ?? '')![1]);
    // A page is the rows the list shows at once.
    expect(page).toBeGreaterThan(10);
    expect(lastFrame()).toContain(`s-${String(page).padStart(2, '0')}`);
    stdin.write(KEYS.pageUp);
    await frameShows(lastFrame, '❯ s-00');
    stdin.write(KEYS.end);
    await frameShows(lastFrame, '❯ s-59');
  });

  it('? shows the keys', async () => {
    const { stdin, lastFrame } = render(<SessionsScreen rows={[]} load={vi.fn()} />);
    await frameShows(lastFrame, 'Sessions (0)');
    stdin.write('?');
    await frameShows(lastFrame, 'Keys (? or Esc to close)');
    expect(lastFrame()).toContain('replay the session');
    stdin.write(KEYS.escape);
    await frameShows(lastFrame, 'Sessions (0)');
  });
});

describe('start screen', () => {
  it('searches the functions, switches the mode, and starts with the choice', async () => {
    const onStart = vi.fn();
    const { stdin, lastFrame } = render(
      <StartScreen
        repo="/r"
        functions={['a.py::parse', 'a.py::render', 'b.py::Parser.parse_line']}
        modelLabel="gpt-test (OpenAI)"
        onStart={onStart}
      />,
    );
    await frameShows(lastFrame, '3 of 3 functions');
    expect(lastFrame()).toContain('model: gpt-test (OpenAI)');
    for (const char of 'parse') stdin.write(char);
    await frameShows(lastFrame, '2 of 3 functions');
    stdin.write(KEYS.down);
    stdin.write(KEYS.tab);
    await frameShows(lastFrame, 'mode: benchmark');
    stdin.write(KEYS.enter);
    await until(() => onStart.mock.calls.length > 0);
    expect(onStart).toHaveBeenCalledWith({ target: 'b.py::Parser.parse_line', blank: true });
    // Its last frame is an empty one: the picker does not stay above the next screen.
    expect(lastFrame()).toBe('');
  });

  it('? shows the keys instead of going into the search; the hint says one Ctrl+C quits', async () => {
    const { stdin, lastFrame } = render(
      <StartScreen repo="/r" functions={['a.py::f']} modelLabel="m" onStart={() => undefined} />,
    );
    // Each step waits for its frame (a fixed wait failed on a busy machine).
    await frameShows(lastFrame, 'Ctrl+C quit');
    expect(lastFrame()).not.toContain('twice');
    stdin.write('?');
    await frameShows(lastFrame, 'Keys (? or Esc to close)');
    expect(lastFrame()).toContain('switch stub / benchmark mode');
    stdin.write('?');
    await frameShows(lastFrame, '1 of 1 functions');
    expect(lastFrame()).toContain('target:  ');
  });

  it('says when no model is configured, and does not start', async () => {
    const onStart = vi.fn();
    const { stdin, lastFrame } = render(
      <StartScreen
        repo="/r"
        functions={['a.py::f']}
        modelProblem="No model is configured. set OPENAI_API_KEY"
        onStart={onStart}
      />,
    );
    await frameShows(lastFrame, 'No model is configured.');
    stdin.write(KEYS.enter);
    await settle(); // what Enter started, had it started anything
    expect(onStart).not.toHaveBeenCalled();
  });

  it('is up before the function list, which comes in when the index is ready; an index failure is shown', async () => {
    let finish!: (list: string[]) => void;
    const { lastFrame } = render(
      <StartScreen
        repo="/r"
        functions={() => new Promise((resolve) => (finish = resolve))}
        modelLabel="m"
        onStart={() => undefined}
      />,
    );
    await frameShows(lastFrame, 'indexing the repository…');
    finish(['a.py::f', 'a.py::g']);
    await frameShows(lastFrame, '2 of 2 functions');
    expect(lastFrame()).toContain('a.py::g');

    const failed = render(
      <StartScreen
        repo="/r"
        functions={() => Promise.reject(new Error('no Python files under /r'))}
        modelLabel="m"
        onStart={() => undefined}
      />,
    );
    await frameShows(failed.lastFrame, "Cannot list the repository's functions: no Python files under /r");
  });
});
