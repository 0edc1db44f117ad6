import { render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { describe, expect, it, vi } from 'vitest';
import { hintRows, KEYS, keyLabels, type KeyScreen } from '../../source/ui/keys';
import { AgentScreen } from '../../source/ui/screens/agent-screen';
import { sessionLine } from '../../source/ui/screens/agent-header';
import { selectedLines } from '../../source/ui/screens/session-rows';
import { reduceAll } from '../../source/ui/view-state';
import type { CatalogEntry } from '../../source/engine/session/catalog';
import { approvedStart, rowsOf } from './helpers';

// Issue 46.9: the pdb footer at 120 columns cut off Esc, the key that hands the session back; a
// step pause at 80 columns cut off `s`; the header cut the session's id; at 80 columns with a fork
// present every row of the sessions browser showed only `…g/stats.py::mean`. Shorten the words,
// never the keys.

const shownKeys = (rows: readonly string[], screen: KeyScreen, skip: readonly string[] = []) =>
  keyLabels(screen, skip).filter((l) => !rows.some((row) => row.includes(`${l.key} `)));

describe('key hints', () => {
  for (const screen of Object.keys(KEYS) as KeyScreen[]) {
    it(`${screen}: every key is there at 40, 60, 80 and 120 columns, each row within the width`, () => {
      for (const width of [40, 60, 80, 120]) {
        const rows = hintRows(screen, width, 1);
        expect(shownKeys(rows, screen), `${screen} at ${width}: ${rows.join(' / ')}`).toEqual([]);
        for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(width);
      }
    });
  }

  it('the pdb footer at 120 columns names Esc, which hands the session back', () => {
    const view = reduceAll(approvedStart());
    const ui = render(
      <AgentScreen view={view} takeover="active" width={120} height={36} allowAlways={vi.fn()} onSend={vi.fn()} />,
    );
    const footer = rowsOf(ui.lastFrame()).slice(-3).join('\n');
    expect(footer).toMatch(/Esc clear/);
    expect(footer).toMatch(/Ctrl\+C interrupt/);
    ui.unmount();
  });

  it('a step pause at 80 columns names s', () => {
    const view = reduceAll(approvedStart());
    const ui = render(
      <AgentScreen
        view={view}
        prompt={{
          kind: 'step-tool',
          call: { id: 'c', name: 'search_class', arguments: '{"class_name":"Cart"}' },
          resolve: vi.fn(),
        }}
        takeover="off"
        width={80}
        height={24}
        allowAlways={vi.fn()}
        onSend={vi.fn()}
        step
      />,
    );
    expect(ui.lastFrame()).toMatch(/s step off/);
    expect(ui.lastFrame()).toMatch(/e edit/);
    ui.unmount();
  });
});

describe('what is shortened instead', () => {
  it('the header keeps the session id whole; the model’s long label is shortened', () => {
    const line = sessionLine(
      {
        modelLabel: 'gpt-4o-mini (OpenAI-compatible, http://127.0.0.1:33069/v1/some/long/path/for/a/proxy)',
        sandbox: 'local (bubblewrap)',
        id: '20261206-080808-abcdef',
      },
      120,
    );
    expect(line).toContain('session 20261206-080808-abcdef');
    expect(stringWidth(line)).toBeLessThanOrEqual(120);
    expect(sessionLine({ modelLabel: 'm', sandbox: 'local', id: '20261206-080808-abcdef' }, 60)).toContain(
      '20261206-080808-abcdef',
    );
  });

  it('the sessions browser says the selected session’s whole target under the list', () => {
    const row = {
      id: '20261204-120000-cccccc',
      target: 'src/statistics_toolkit/stats.py::mean',
      parent: { id: '20261204-100000-aaaaaa', at: 12 },
    } as CatalogEntry;
    const line = selectedLines(row, 80).join(' ');
    expect(line).toContain('src/statistics_toolkit/stats.py::mean');
    expect(line).toContain('fork of 20261204-100000-aaaaaa at event 12');
  });
});
