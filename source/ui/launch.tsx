import { render } from 'ink';
import type { EngineEvent } from '../engine/events';
import { Catalog } from '../engine/session/catalog';
import { loadSession } from '../engine/session/load';
import { ReplayScreen } from './screens/replay-screen';
import { SessionsScreen } from './screens/sessions-screen';

/** `tenet replay ID` in a terminal. */
export async function replayTui(id: string, events: readonly (EngineEvent & { ts?: string })[], speed = 1): Promise<number> {
  let app: ReturnType<typeof render>;
  app = render(<ReplayScreen id={id} events={events} initialSpeed={speed} onBack={() => app.unmount()} />);
  await app.waitUntilExit();
  return 0;
}

/** `tenet sessions` in a terminal: the browser, and replays from it. */
export async function sessionsTui(root: string): Promise<number> {
  const rows = new Catalog(root).list();
  const app = render(<SessionsScreen rows={rows} load={(id) => loadSession(root, id)} />);
  await app.waitUntilExit();
  return 0;
}

/** `tenet` with no command, in a terminal: the start screen; resolves with the choice, or undefined on Esc. */
export async function startTui(props: Omit<import('./screens/start-screen').StartScreenProps, 'onStart' | 'onQuit'>): Promise<import('./screens/start-screen').StartChoice | undefined> {
  const { StartScreen } = await import('./screens/start-screen');
  let choice: import('./screens/start-screen').StartChoice | undefined;
  let app: ReturnType<typeof render>;
  app = render(
    <StartScreen
      {...props}
      onStart={(picked) => {
        choice = picked;
        app.unmount();
      }}
    />,
  );
  await app.waitUntilExit();
  return choice;
}
