import { render } from 'ink';
import { startBracketedPaste } from './bracketed-paste';
import { StartScreen, type StartChoice, type StartScreenProps } from './screens/start-screen';

/**
 * `tenet` with no command, in a terminal: the start screen; resolves with the choice, or undefined
 * on Esc. A module of its own: the first frame needs Ink and this screen, nothing of the sessions.
 */
export async function startTui(props: Omit<StartScreenProps, 'onStart' | 'onQuit'>): Promise<StartChoice | undefined> {
  let choice: StartChoice | undefined;
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
