import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { ReachRefreshStatus } from '../../source/engine/thm/reach-refresh';
import { StartScreen, type TargetCheck } from '../../source/ui/screens/start-screen';
import { frameShows, KEYS, resize, until } from './helpers';

const functions = [
  'click/formatting.py::wrap_text',
  'click/termui.py::style',
  'click/core.py::Option.flag_value@310',
  'click/core.py::Option.flag_value@318',
];
const NO_MODEL =
  'No model is configured. To use a model, set OPENAI_API_KEY (or ANTHROPIC_API_KEY); or pass --provider openai --base-url URL for an OpenAI-compatible server (Ollama, vLLM, llama.cpp); or --provider scripted --script FILE to replay a script.';

describe('the start screen refuses sessions that cannot work', () => {
  it('stub mode on a function with a real body offers benchmark mode before anything runs', async () => {
    const onStart = vi.fn();
    const checkTarget = vi.fn(async (): Promise<TargetCheck> => ({ body: 'implemented' }));
    const ui = render(
      <StartScreen repo="/r" functions={functions} modelLabel="m" checkTarget={checkTarget} onStart={onStart} />,
    );
    await frameShows(ui.lastFrame, '4 of 4 functions');
    ui.stdin.write('wrap');
    await frameShows(ui.lastFrame, '1 of 4 functions');
    ui.stdin.write(KEYS.enter);
    await frameShows(ui.lastFrame, 'Start in benchmark mode instead? y/N');
    expect(checkTarget).toHaveBeenCalledWith('click/formatting.py::wrap_text');
    expect(ui.lastFrame()).toContain('wrap_text has a real body');
    ui.stdin.write('n'); // back to the list, nothing started
    await frameShows(ui.lastFrame, '1 of 4 functions');
    expect(onStart).not.toHaveBeenCalled();
    ui.stdin.write(KEYS.enter);
    await frameShows(ui.lastFrame, 'Start in benchmark mode instead? y/N');
    ui.stdin.write('y');
    await until(() => onStart.mock.calls.length > 0);
    expect(onStart).toHaveBeenCalledWith({ target: 'click/formatting.py::wrap_text', blank: true });
  });

  it('benchmark mode on a stub offers stub mode; a matching mode starts at once', async () => {
    const onStart = vi.fn();
    const ui = render(
      <StartScreen
        repo="/r"
        functions={functions}
        modelLabel="m"
        checkTarget={async () => ({ body: 'stub' })}
        onStart={onStart}
      />,
    );
    await frameShows(ui.lastFrame, '4 of 4 functions');
    ui.stdin.write(KEYS.tab);
    await frameShows(ui.lastFrame, 'mode: benchmark');
    ui.stdin.write(KEYS.enter);
    await frameShows(ui.lastFrame, 'Start in stub mode instead? y/N');
    ui.stdin.write(KEYS.escape);
    await frameShows(ui.lastFrame, 'mode: benchmark');
    ui.stdin.write(KEYS.tab);
    await frameShows(ui.lastFrame, 'mode: stub');
    ui.stdin.write(KEYS.enter);
    await until(() => onStart.mock.calls.length > 0);
    expect(onStart).toHaveBeenCalledWith({ target: 'click/formatting.py::wrap_text', blank: false });
  });

  it('a target that cannot be resolved says why, and nothing starts', async () => {
    const onStart = vi.fn();
    const ui = render(
      <StartScreen
        repo="/r"
        functions={functions}
        modelLabel="m"
        checkTarget={async () => ({ problem: 'Target click/x.py::f is ambiguous: 2 definitions have that name.' })}
        onStart={onStart}
      />,
    );
    await frameShows(ui.lastFrame, '4 of 4 functions');
    ui.stdin.write(KEYS.enter);
    await frameShows(ui.lastFrame, 'is ambiguous');
    expect(onStart).not.toHaveBeenCalled();
  });

  it('two definitions of one name are two rows, each with its line, and the choice carries it', async () => {
    const onStart = vi.fn();
    const ui = render(<StartScreen repo="/r" functions={functions} modelLabel="m" onStart={onStart} />);
    await frameShows(ui.lastFrame, '4 of 4 functions');
    ui.stdin.write('flag_value');
    await frameShows(ui.lastFrame, '2 of 4 functions');
    expect(ui.lastFrame()).toContain('click/core.py::Option.flag_value@310');
    expect(ui.lastFrame()).toContain('click/core.py::Option.flag_value@318');
    ui.stdin.write(KEYS.down);
    ui.stdin.write(KEYS.enter);
    await until(() => onStart.mock.calls.length > 0);
    expect(onStart).toHaveBeenCalledWith({ target: 'click/core.py::Option.flag_value@318', blank: false });
  });
});

describe('the start screen without a model', () => {
  it('says in full what to set, even in 60 columns; Enter says it again; d runs the scripted demo', async () => {
    const onStart = vi.fn();
    const ui = render(<StartScreen repo="/r" functions={functions} modelProblem={NO_MODEL} onStart={onStart} />);
    resize(ui.stdout, 60, 20);
    await frameShows(ui.lastFrame, 'd run the scripted demo');
    const text = ui.lastFrame()!.replace(/\s+/g, ' ');
    expect(text).toContain(NO_MODEL);
    ui.stdin.write(KEYS.enter);
    await frameShows(ui.lastFrame, 'press d for the scripted demo');
    expect(onStart).not.toHaveBeenCalled();
    ui.stdin.write('d');
    await until(() => onStart.mock.calls.length > 0);
    expect(onStart).toHaveBeenCalledWith({ demo: true });
  });

  it('says the scope the session will run, and with it the whole screen fits the terminal (a list longer than the room)', async () => {
    const many = Array.from({ length: 50 }, (_, i) => `pkg/mod.py::f${i}`);
    const ui = render(
      <StartScreen
        repo="/r"
        functions={many}
        modelLabel="m"
        testArgs={['tests/unit', '-m', 'not slow']}
        onStart={vi.fn()}
      />,
    );
    resize(ui.stdout, 60, 20);
    await frameShows(ui.lastFrame, '50 of 50 functions');
    const lines = ui.lastFrame()!.split('\n');
    expect(lines).toContain("tests: tests/unit -m 'not slow' (--tests)");
    // Ink keeps one row free: 19 rows, the title first and the keys last.
    expect(lines.length).toBe(19);
    expect(lines[0]).toBe('tenet · /r');
    expect(lines.at(-1)).toContain('Ctrl+C quit');
    const bare = render(<StartScreen repo="/r" functions={many} modelLabel="m" onStart={vi.fn()} />);
    await frameShows(bare.lastFrame, 'tests: the whole suite · tenet --tests ARGS… narrows it');
  });
});

describe("the start screen says how many tests reach each function (issue 44's reach index)", () => {
  it('once the counts load, beside every row; a getter and setter share theirs; none without an index', async () => {
    const counts = new Map([
      ['click/formatting.py::wrap_text', 2],
      ['click/core.py::Option.flag_value', 1],
    ]);
    const ui = render(
      <StartScreen repo="/r" functions={functions} modelLabel="m" reachCounts={async () => counts} onStart={vi.fn()} />,
    );
    await frameShows(ui.lastFrame, 'wrap_text · 2 tests reach it');
    expect(ui.lastFrame()).toContain('style · no test reaches it');
    expect(ui.lastFrame()).toContain('flag_value@310 · 1 test reaches it');
    expect(ui.lastFrame()).toContain('flag_value@318 · 1 test reaches it');
    const none = render(
      <StartScreen
        repo="/r"
        functions={functions}
        modelLabel="m"
        reachCounts={async () => undefined}
        onStart={vi.fn()}
      />,
    );
    await frameShows(none.lastFrame, '4 of 4 functions');
    expect(none.lastFrame()).not.toContain('reach');
  });

  it('a refresh in the background says so in one quiet line, then its counts replace the kept ones', async () => {
    const kept = new Map([['click/formatting.py::wrap_text', 2]]);
    let report: (status: ReachRefreshStatus) => void = () => undefined;
    const refreshReach = vi.fn((onStatus: (status: ReachRefreshStatus) => void) => {
      report = onStatus;
    });
    const ui = render(
      <StartScreen
        repo="/r"
        functions={functions}
        modelLabel="m"
        reachCounts={async () => kept}
        refreshReach={refreshReach}
        onStart={vi.fn()}
      />,
    );
    await frameShows(ui.lastFrame, 'wrap_text · 2 tests reach it');
    expect(refreshReach).toHaveBeenCalledTimes(1);
    report({ state: 'refreshing', stale: 12, done: 0, total: 0 });
    await frameShows(ui.lastFrame, 'index: refreshing 12 stale tests…');
    report({ state: 'refreshing', stale: 12, done: 5, total: 12 });
    await frameShows(ui.lastFrame, 'index: refreshing 12 stale tests… 5/12');
    report({ state: 'done', refreshed: 12, ms: 2100, counts: new Map([['click/formatting.py::wrap_text', 3]]) });
    await frameShows(ui.lastFrame, 'wrap_text · 3 tests reach it');
    expect(ui.lastFrame()).toContain('index: refreshed, 12 stale tests recorded again (2.1 s)');
    // Typing goes on while it runs: the search is not held up.
    ui.stdin.write('wrap');
    await frameShows(ui.lastFrame, '1 of 4 functions');
  });

  it('a refresh that fails says so in one line and the screen goes on', async () => {
    const ui = render(
      <StartScreen
        repo="/r"
        functions={functions}
        modelLabel="m"
        refreshReach={(onStatus) => onStatus({ state: 'failed', message: 'pytest could not run the tests:' })}
        onStart={vi.fn()}
      />,
    );
    await frameShows(ui.lastFrame, 'index: the refresh failed, the kept index stays: pytest could not run the tests:');
    ui.stdin.write('style');
    await frameShows(ui.lastFrame, '1 of 4 functions');
  });
});
