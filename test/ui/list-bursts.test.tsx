import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { Key } from 'ink';
import { reduceCursor, cursorMove } from '../../source/ui/components/list-cursor';
import { TuiController } from '../../source/ui/controller';
import { SessionsScreen } from '../../source/ui/screens/sessions-screen';
import { ItemBrowser } from '../../source/ui/components/item-browser';
import { agentOn } from './agent-on';
import { frameShows, KEYS } from './helpers';

// Issue 37.8: a burst of arrow keys (key repeat, tmux send-keys) moved the outputs list (`o`) and
// the sessions list one row in all: each key read the cursor of the last frame. Each key now goes
// through the list's reducer from where the key before left it.

const key = (k: Partial<Key>) => k as Key;

describe('a list cursor', () => {
  it('is a pure reducer: a row per arrow, a page per PgUp/PgDn, the ends for Home/End, never outside the list', () => {
    const moves = [
      key({ downArrow: true }),
      key({ downArrow: true }),
      key({ pageDown: true }),
      key({ upArrow: true }),
    ].map((k) => cursorMove(k, 10)!);
    expect(moves.reduce((at, move) => reduceCursor(at, move, 100), 0)).toBe(11);
    expect(reduceCursor(3, cursorMove(key({ end: true }), 10)!, 7)).toBe(6);
    expect(reduceCursor(3, cursorMove(key({ pageUp: true }), 10)!, 7)).toBe(0);
    expect(cursorMove(key({ return: true }), 10)).toBeUndefined();
  });

  it('in the outputs list (o), five ↑ sent at once move five rows, and Enter right after opens that row', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    for (let i = 1; i <= 12; i++) {
      controller.dispatch({
        type: 'tool.call',
        id: `c${i}`,
        name: 'search_code',
        arguments: JSON.stringify({ search_string: `needle${i}` }),
      });
      controller.dispatch({
        type: 'tool.result',
        id: `c${i}`,
        name: 'search_code',
        ok: true,
        text: `found ${i}`,
        durationMs: 1,
      });
    }
    await frameShows(ui.lastFrame, 'found 12');
    ui.stdin.write('o');
    await frameShows(ui.lastFrame, 'Outputs so far');
    expect(ui.lastFrame()).toMatch(/❯ +\d+ → search_code search_string=needle12/);
    // As a terminal sends key repeat: the five in one chunk, Enter in the next.
    ui.stdin.write(KEYS.up.repeat(5));
    ui.stdin.write(KEYS.enter);
    await frameShows(ui.lastFrame, 'in full');
    expect(ui.lastFrame()).toContain('found 7');
    ui.unmount();
  });

  it('in the sessions list, five ↑ sent at once move five rows', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({
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
    const load = vi.fn(() => {
      throw new Error('not loaded in this test');
    });
    const { stdin, lastFrame } = render(<SessionsScreen rows={rows} load={load} />);
    await frameShows(lastFrame, '❯ s-19');
    for (let i = 0; i < 5; i++) stdin.write(KEYS.up);
    stdin.write(KEYS.enter);
    await frameShows(lastFrame, '❯ s-14');
    await frameShows(lastFrame, 'not loaded in this test');
    expect(load).toHaveBeenCalledWith('s-14');
  });
});

describe('the outputs list on its own', () => {
  it('five ↑ in one chunk move five rows', async () => {
    const items = Array.from({ length: 12 }, (_, i) => ({
      id: i + 1,
      kind: 'note' as const,
      text: `note ${i + 1}`,
      tone: 'info' as const,
    }));
    const { stdin, lastFrame } = render(
      <ItemBrowser items={items} width={100} height={20} onClose={() => undefined} />,
    );
    await frameShows(lastFrame, /❯ +12 note 12/);
    stdin.write(KEYS.up.repeat(5));
    await frameShows(lastFrame, /❯ +7 note 7/);
  });
});
