import { render } from 'ink';
import { loadPythonHighlighting } from './components/python-highlight';
import type { EngineEvent } from '../engine/events';
import { Catalog } from '../engine/session/catalog';
import { loadSession } from '../engine/session/load';
import { ReplayScreen } from './screens/replay-screen';
import { SessionsScreen } from './screens/sessions-screen';

/** What the developer asked for on leaving a replay or the browser: a fork of a session from an event (`f`), or a resume (`r`). */
export interface ReplayExit {
  /** `from`: where `f` was pressed, on the browser's list or in a replay. */
  fork?: { id: string; at: number; from?: 'list' | 'replay' };
  resume?: string;
}

/**
 * What the browser opens once a fork or a resume it started has run: the replay the fork was made
 * in, at its event; a fork made from the list (or a resume) goes back to the list.
 */
export function reopenAfter(exit: ReplayExit): { id: string; at: number } | undefined {
  return exit.fork?.from === 'replay' ? { id: exit.fork.id, at: exit.fork.at } : undefined;
}

/** `tenet replay ID` in a terminal. */
export async function replayTui(
  id: string,
  events: readonly (EngineEvent & { ts?: string })[],
  speed = 1,
  at?: number,
): Promise<ReplayExit> {
  let exit: ReplayExit = {};
  let app: ReturnType<typeof render>;
  void loadPythonHighlighting(); // a replay's code in colours; the first frame does not wait for it
  const fork = (event: number) => {
    exit = { fork: { id, at: event } };
    app.unmount();
  };
  app = render(
    <ReplayScreen
      id={id}
      events={events}
      initialSpeed={speed}
      onBack={() => app.unmount()}
      onFork={fork}
      {...(at !== undefined ? { at } : {})}
    />,
  );
  await app.waitUntilExit();
  return exit;
}

/**
 * `tenet sessions` in a terminal: the browser, and replays, forks and resumes from it. `reopen`:
 * the replay to open at once, at an event (where a fork started from it, once the fork's run ended).
 */
export async function sessionsTui(root: string, reopen?: { id: string; at: number }): Promise<ReplayExit> {
  const rows = new Catalog(root).list();
  let exit: ReplayExit = {};
  let app: ReturnType<typeof render>;
  void loadPythonHighlighting();
  const leave = (asked: ReplayExit) => {
    exit = asked;
    app.unmount();
  };
  app = render(
    <SessionsScreen
      rows={rows}
      load={(id) => loadSession(root, id)}
      onFork={(id, at, from) => leave({ fork: { id, at, from } })}
      onResume={(id) => leave({ resume: id })}
      {...(reopen ? { reopen } : {})}
    />,
  );
  await app.waitUntilExit();
  return exit;
}
