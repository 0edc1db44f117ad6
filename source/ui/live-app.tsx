import { Box, Text, useApp, useInput } from 'ink';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { HelpOverlay } from './components/help-overlay';
import type { TuiController } from './controller';
import type { KeyScreen } from './keys';
import { AgentScreen } from './screens/agent-screen';
import { ResultScreen } from './screens/result-screen';
import { ThmScreen } from './screens/thm-screen';
import { useTerminalSize } from './use-terminal-size';

export interface LiveAppProps {
  controller: TuiController;
  /** The run ended and its patch decision was made: the app may close. */
  finished: boolean;
  /** The developer pressed Ctrl+C twice. */
  onQuit(): void;
  sourceOf?: (nodeid: string) => Promise<string | undefined>;
  /** A label that must be seen, e.g. that a scripted demo model answers. */
  banner?: string;
}

/** A live session: THM, then the agent, then the result, with the keys of each screen. */
export function LiveApp({ controller, finished, onQuit, sourceOf, banner }: LiveAppProps) {
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  const { width, height } = useTerminalSize();
  const { exit } = useApp();
  const [help, setHelp] = useState(false);
  const [quitArmed, setQuitArmed] = useState(false);
  const { view, prompt, takeover } = state;
  // The result screen opens with the patch question, before the result event (the engine emits it once decided).
  const result = prompt?.kind === 'accept-patch' ? prompt.result : view.result;
  const screen: KeyScreen = prompt?.kind === 'approve-tests' || (!view.thm.approval && !result) ? 'thm' : result ? 'result' : 'agent';

  useEffect(() => {
    if (finished) exit();
  }, [finished, exit]);

  useInput((input, key) => {
    if (key.ctrl && input === 'c') {
      if (quitArmed) {
        onQuit();
        return;
      }
      setQuitArmed(true);
      controller.setNotice('Press Ctrl+C again to quit; the session is saved and can be resumed.');
      setTimeout(() => {
        setQuitArmed(false);
        controller.setNotice(undefined);
      }, 3000);
      return;
    }
    if (help) {
      if (input === '?' || key.escape) setHelp(false);
      return;
    }
    if (takeover === 'active' || takeover === 'requested') {
      if (key.escape) controller.handBack();
      return;
    }
    if (prompt && prompt.kind !== 'approve-tests' && prompt.kind !== 'accept-patch') return; // the prompt has the keys
    if (input === '?') setHelp(true);
    else if (screen === 'agent' && input === 't') controller.requestTakeover();
    else if (screen === 'agent' && key.escape) controller.cancelCall();
  });

  if (help) return <HelpOverlay screens={screen === 'agent' ? ['agent', 'takeover', 'command'] : [screen]} />;
  return (
    <Box flexDirection="column">
      {banner ? <Text color="yellow">{banner}</Text> : null}
      {screen === 'thm' ? (
        <ThmScreen view={view} {...(prompt?.kind === 'approve-tests' ? { prompt } : {})} width={width} height={height} {...(sourceOf ? { sourceOf } : {})} />
      ) : screen === 'agent' ? (
        <AgentScreen
          view={view}
          {...(prompt ? { prompt } : {})}
          takeover={takeover}
          {...(state.notice ? { notice: state.notice } : {})}
          width={width}
          height={height}
          allowAlways={() => controller.allowAlways()}
          onSend={(line) => void controller.send(line)}
        />
      ) : (
        <ResultScreen result={result!} {...(prompt?.kind === 'accept-patch' ? { prompt } : {})} width={width} height={height} />
      )}
      {screen !== 'agent' && state.notice ? <Text color="yellow">{state.notice}</Text> : null}
    </Box>
  );
}
