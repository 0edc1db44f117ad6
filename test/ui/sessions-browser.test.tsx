import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { CatalogEntry } from '../../source/engine/session/catalog';
import type { LoadedSession } from '../../source/engine/session/load';
import { SessionsScreen } from '../../source/ui/screens/sessions-screen';
import { frameLacks, frameShows, KEYS, resize, rowsOf, until } from './helpers';

// Issue 37.5: the sessions browser only replayed (no resume, no fork), showed forks as any other
// session, and dropped the model and cost columns below 110 columns.

const entry = (id: string, more: Partial<CatalogEntry> = {}): CatalogEntry => ({
  id,
  created: '2026-12-04T10:00:00Z',
  updated: '2026-12-04T10:05:00Z',
  repo: '/r',
  target: 'invoicing/tax.py::tax_for',
  strategy: 'tenet',
  provider: 'openai',
  model: 'gpt-4o-mini',
  status: 'passed',
  pass: true,
  tokens: { input: 1000, output: 200 },
  costUsd: 0.0123,
  events: 40,
  logBytes: 100,
  ...more,
});

const rows = [
  entry('20261204-100000-aaaaaa'),
  entry('20261204-110000-bbbbbb', {
    status: 'interrupted',
    pass: null,
    model: 'claude-sonnet-4-5',
    provider: 'anthropic',
    costUsd: 1.5,
  }),
  // A fork of the first session, listed after the second: it goes under its parent.
  entry('20261204-120000-cccccc', { parent: { id: '20261204-100000-aaaaaa', at: 12 }, status: 'failed', pass: false }),
];

/** A session whose agent worked from event 3 to 6, then was evaluated from event 7. */
const session = (id: string): LoadedSession =>
  ({
    id,
    source: `/s/${id}`,
    warnings: [],
    events: [
      { type: 'session.start', seq: 1 },
      { type: 'thm.report', seq: 2 },
      { type: 'agent.phase', phase: 'pregen', seq: 3 },
      { type: 'model.request', seq: 4 },
      { type: 'model.response', seq: 5 },
      { type: 'tool.call', seq: 6 },
      { type: 'agent.phase', phase: 'evaluate', seq: 7 },
      { type: 'result', seq: 8 },
    ],
  }) as unknown as LoadedSession;

async function at80(props: Partial<Parameters<typeof SessionsScreen>[0]> = {}) {
  const ui = render(<SessionsScreen rows={rows} load={session} {...props} />);
  resize(ui.stdout, 80, 24);
  await frameShows(ui.lastFrame, 'Sessions (3)');
  return ui;
}

describe('the sessions browser', () => {
  it('at 80 columns keeps every column, narrower: the model and the cost of each session', async () => {
    const { lastFrame } = await at80();
    const lines = rowsOf(lastFrame()).filter((line) => line.includes('20261204-'));
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/20261204-100000-aaaaaa +passed +…\S*tax\.py::tax_for +gpt-4o-mini +\$0\.0123/);
    expect(lines.find((line) => line.includes('bbbbbb'))).toMatch(/interrupted +…\S*tax_for +claude-\S* +\$1\.5000/);
  });

  it('marks a fork as the text list does: right under its parent, with └, and says whose fork it is', async () => {
    const { lastFrame, stdin } = await at80();
    const lines = rowsOf(lastFrame()).filter((line) => line.includes('20261204-'));
    expect(lines[1]).toContain('└ 20261204-120000-cccccc');
    stdin.write(KEYS.home);
    stdin.write(KEYS.down);
    await frameShows(lastFrame, 'invoicing/tax.py::tax_for · fork of 20261204-100000-aaaaaa at event 12');
  });

  it('r resumes an interrupted session after a y, and says why a finished one cannot be', async () => {
    const onResume = vi.fn();
    const { lastFrame, stdin } = await at80({ onResume });
    stdin.write(KEYS.home);
    await frameShows(lastFrame, '❯ 20261204-100000-aaaaaa');
    stdin.write('r');
    await frameShows(lastFrame, /has finished \(passed\): there is nothing to/);
    stdin.write(KEYS.down); // the interrupted session is the last row, after the fork
    stdin.write(KEYS.down);
    await frameShows(lastFrame, '❯ 20261204-110000-bbbbbb');
    stdin.write('r');
    await frameShows(lastFrame, 'Resume session 20261204-110000-bbbbbb?');
    stdin.write('y');
    await until(() => onResume.mock.calls.length > 0);
    expect(onResume).toHaveBeenCalledWith('20261204-110000-bbbbbb');
  });

  it('f forks a session from before its last model call, after a y', async () => {
    const onFork = vi.fn();
    const { lastFrame, stdin } = await at80({ onFork });
    stdin.write(KEYS.home);
    await frameShows(lastFrame, '❯ 20261204-100000-aaaaaa');
    stdin.write('f');
    await frameShows(lastFrame, 'Fork session 20261204-100000-aaaaaa at event 3');
    stdin.write('n');
    await frameLacks(lastFrame, 'Fork session 20261204-100000-aaaaaa at event 3');
    expect(onFork).not.toHaveBeenCalled();
    stdin.write('f');
    await frameShows(lastFrame, 'Fork session 20261204-100000-aaaaaa at event 3');
    stdin.write('y');
    await until(() => onFork.mock.calls.length > 0);
    expect(onFork).toHaveBeenCalledWith('20261204-100000-aaaaaa', 3, 'list');
  });

  it('names r and f in its keys', async () => {
    const { lastFrame } = await at80({ onFork: vi.fn(), onResume: vi.fn() });
    expect(lastFrame()).toMatch(/r resume/);
    expect(lastFrame()).toMatch(/f fork/);
  });
});
