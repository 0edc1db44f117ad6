import { render } from 'ink';
import type { EngineEvent } from '../engine/events';
import { startBracketedPaste } from './bracketed-paste';
import { Catalog } from '../engine/session/catalog';
import { loadSession } from '../engine/session/load';
import { ReplayScreen } from './screens/replay-screen';
import { SessionsScreen } from './screens/sessions-screen';

/** What the developer asked for on leaving a replay: a fork of the session from an event (`f`). */
export interface ReplayExit {
  fork?: { id: string; at: number };
}

/** `tenet replay ID` in a terminal. */
export async function replayTui(id: string, events: readonly (EngineEvent & { ts?: string })[], speed = 1, at?: number): Promise<ReplayExit> {
  let exit: ReplayExit = {};
  let app: ReturnType<typeof render>;
  const fork = (event: number) => {
    exit = { fork: { id, at: event } };
    app.unmount();
  };
  app = render(<ReplayScreen id={id} events={events} initialSpeed={speed} onBack={() => app.unmount()} onFork={fork} {...(at !== undefined ? { at } : {})} />);
  await app.waitUntilExit();
  return exit;
}

/**
 * `tenet sessions` in a terminal: the browser, and replays (and forks) from it. `reopen`: the
 * replay to open at once, at an event (where a fork started from it, once the fork's run ended).
 */
export async function sessionsTui(root: string, reopen?: { id: string; at: number }): Promise<ReplayExit> {
  const rows = new Catalog(root).list();
  let exit: ReplayExit = {};
  let app: ReturnType<typeof render>;
  const fork = (id: string, at: number) => {
    exit = { fork: { id, at } };
    app.unmount();
  };
  app = render(<SessionsScreen rows={rows} load={(id) => loadSession(root, id)} onFork={fork} {...(reopen ? { reopen } : {})} />);
  await app.waitUntilExit();
  return exit;
}

/** `tenet` with no command, in a terminal: the start screen; resolves with the choice, or undefined on Esc. */
export async function startTui(props: Omit<import('./screens/start-screen').StartScreenProps, 'onStart' | 'onQuit'>): Promise<import('./screens/start-screen').StartChoice | undefined> {
  const { StartScreen } = await import('./screens/start-screen');
  let choice: import('./screens/start-screen').StartChoice | undefined;
  let app: ReturnType<typeof render>;
  const stopPaste = startBracketedPaste(process.stdout);
  app = render(
    <StartScreen
      {...props}
      onStart={(picked) => {
        choice = picked;
        app.unmount();
      }}
    />,
  );
  try {
    await app.waitUntilExit();
  } finally {
    stopPaste();
  }
  return choice;
}
