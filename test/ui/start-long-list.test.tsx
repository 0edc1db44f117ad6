import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { StartScreen } from '../../source/ui/screens/start-screen';
import { frameShows, KEYS, resize, rowsOf, until } from './helpers';

// Issue 46.18: sympy's 21,980 functions on the start screen: no `… N more` line, and PgDn, End
// and Home did nothing.

const functions = Array.from({ length: 21_980 }, (_, i) => `sympy/mod_${String(i).padStart(5, '0')}.py::f`);

describe('the start screen’s long list of functions', () => {
  it('says how many more there are; PgDn moves a page, End to the last, Home to the first', async () => {
    const onStart = vi.fn();
    const ui = render(<StartScreen repo="/r" functions={functions} modelLabel="m" onStart={onStart} />);
    resize(ui.stdout, 80, 24);
    await frameShows(ui.lastFrame, '21980 of 21980 functions');
    await frameShows(ui.lastFrame, /… [\d,]+ more · PgUp PgDn Home End/);
    expect(rowsOf(ui.lastFrame()).length).toBeLessThan(24);
    ui.stdin.write(KEYS.pageDown);
    await frameShows(ui.lastFrame, /❯ sympy\/mod_000(0[5-9]|1\d)\.py::f/);
    ui.stdin.write(KEYS.end);
    await frameShows(ui.lastFrame, '❯ sympy/mod_21979.py::f');
    expect(ui.lastFrame()).toMatch(/… the end \([\d,]+ above\)/);
    ui.stdin.write(KEYS.home);
    await frameShows(ui.lastFrame, '❯ sympy/mod_00000.py::f');
    ui.stdin.write(KEYS.end);
    await frameShows(ui.lastFrame, '❯ sympy/mod_21979.py::f');
    ui.stdin.write(KEYS.enter);
    await until(() => onStart.mock.calls.length > 0);
    expect(onStart).toHaveBeenCalledWith({ target: 'sympy/mod_21979.py::f', blank: false });
    ui.unmount();
  });
});
