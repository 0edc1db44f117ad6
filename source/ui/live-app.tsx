import { Static, Text, useApp } from 'ink';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { failuresOf } from './components/failures';
import { Covered } from './components/covered';
import { HelpOverlay } from './components/help-overlay';
import type { TuiController } from './controller';
import { QUIT_LIVE_NOTICE, type KeyScreen } from './keys';
import { AgentScreen } from './screens/agent-screen';
import { PlanScreen } from './screens/plan-screen';
import { ResultScreen } from './screens/result-screen';
import { ThmScreen } from './screens/thm-screen';
import { TooSmall } from './components/too-small';
import { TranscriptItemView } from './components/transcript-item';
import { sessionWallMs } from './view-state';
import { tooSmall, useTerminalSize } from './use-terminal-size';
import { useKeys } from './components/use-keys';

export interface LiveAppProps {
  controller: TuiController;
  /** The run ended and its patch decision was made: the app may close. */
  finished: boolean;
  /** The developer pressed Ctrl+C twice. */
  onQuit(): void;
  sourceOf?: (nodeid: string) => Promise<string | undefined>;
  /** A label that must be seen, e.g. that a scripted demo model answers. */
  banner?: string;
  /** Where the session is saved. */
  sessionsDir?: string;
}

/** A live session: THM, then the agent, then the result, with the keys of each screen. */
export function LiveApp({ controller, finished, onQuit, sourceOf, banner, sessionsDir }: LiveAppProps) {
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  const { width, height } = useTerminalSize();
  const { exit } = useApp();
  const [help, setHelp] = useState(false);
  // Armed by the first Ctrl+C: a ref, so a second one that comes before the next frame still quits.
  const quitArmed = useRef(false);
  // A viewer of the agent screen (earlier outputs, the test file) has Esc and the letters.
  const [viewerOpen, setViewerOpen] = useState(false);
  // The THM review's filter is being typed in: `?` is a character of it.
  const [filtering, setFiltering] = useState(false);
  const { view, prompt, takeover } = state;
  // The result screen opens with the patch question, before the result event (the engine emits it once decided).
  const result = prompt?.kind === 'accept-patch' ? prompt.result : view.result;
  // The review's desk: the developer's tests are written in the workspace, and read from there.
  const desk = prompt?.kind === 'approve-tests' ? prompt.desk : undefined;
  const failures = useMemo(() => failuresOf(view.evaluation?.report ?? ''), [view.evaluation]);
  const screen: KeyScreen =
    prompt?.kind === 'approve-tests' || (!view.thm.approval && !result) ? 'thm' : result ? 'result' : 'agent';

  // The result screen stays, with its keys, until q: deciding about the patch (apply, reject) or
  // saving it says what it did there, and a run with no patch had nothing to decide.
  const [closed, setClosed] = useState(false);
  const lingers = finished && !!result && !closed;
  useEffect(() => {
    if (finished && !lingers) exit();
  }, [finished, lingers, exit]);

  // A notice belongs to the moment it was said: the takeover's (where Ctrl+C went, how to hand
  // back) ends with the takeover, and none outlives its screen (the key hints come back).
  useEffect(() => {
    if (takeover === 'off' && controller.getState().notice) controller.setNotice(undefined);
  }, [takeover, screen, controller]);

  // A notice for a few seconds (unless another took its place).
  const flash = (notice: string) => {
    controller.setNotice(notice);
    setTimeout(() => {
      if (controller.getState().notice === notice) controller.setNotice(undefined);
    }, 4000);
  };

  useKeys((input, key) => {
    // The developer has the debugger: Ctrl+C is for the program it runs, as in any terminal.
    if (key.ctrl && input === 'c' && (takeover === 'active' || takeover === 'returning')) {
      controller.interruptDebugger();
      controller.setNotice(
        takeover === 'active'
          ? 'Ctrl+C went to the program being debugged (SIGINT). Esc on an empty line hands the session back; then Ctrl+C twice quits.'
          : 'Ctrl+C went to the program being debugged (SIGINT): the agent gets the session once it stops. Then Ctrl+C twice quits.',
      );
      return;
    }
    // Two Ctrl+C faster than the terminal is read come as one input ("\x03\x03"): that is the second press too.
    const twice = /^\x03{2,}$/.test(input);
    if ((key.ctrl && input === 'c') || twice) {
      if (quitArmed.current || twice) {
        onQuit();
        return;
      }
      quitArmed.current = true;
      // An edit at a step pause is saved when its call runs: said in a row's room, before it is lost.
      controller.setNotice(
        controller.unsavedEdit()
          ? 'Ctrl+C again quits and loses your edit (it is saved when the call runs)'
          : 'Press Ctrl+C again to quit; the session is saved and can be resumed.',
      );
      setTimeout(() => {
        quitArmed.current = false;
        controller.setNotice(undefined);
      }, 3000);
      return;
    }
    if (help) {
      if (input === '?' || key.escape) setHelp(false);
      return;
    }
    // Active, the pdb line has the keys (Esc on an empty line hands back); requested, Esc withdraws the request.
    if (takeover === 'active' || takeover === 'requested') {
      if (key.escape && takeover === 'requested') controller.handBack();
      return;
    }
    // A viewer or a field being typed in (a message, a reason, THM's filter) has every key, `?` included.
    if (viewerOpen && screen === 'agent') return;
    if (filtering && screen === 'thm') return;
    if (input === '?') {
      setHelp(true);
      return;
    }
    // A step pause only waits for the developer: the screen's keys work around it (`t` at once).
    const stepPause = prompt?.kind === 'step-model' || prompt?.kind === 'step-tool';
    if (prompt && !stepPause && prompt.kind !== 'approve-tests' && prompt.kind !== 'accept-patch') return; // the prompt has the keys
    if (screen === 'agent' && input === 't') controller.requestTakeover();
    else if (screen === 'agent' && key.escape) {
      // No call to cancel: Esc has nothing to take back, so say what quits.
      if (stepPause || !controller.cancelCall()) flash(QUIT_LIVE_NOTICE);
    }
    // q quits only where nothing is lost (the result screen, a replay): elsewhere, say what does.
    else if (input === 'q' && (screen === 'agent' || (screen === 'thm' && !prompt))) flash(QUIT_LIVE_NOTICE);
  });

  // The live frame stays a row shorter than the terminal (Ink clears the screen and its
  // scrollback when it is not), less the banner and the notice line.
  const noticeRow = screen !== 'agent' && state.notice ? 1 : 0;
  // Every item of the agent's transcript but the latest, which the agent screen keeps live (it may change yet).
  const doneItems = useMemo(() => view.agent.items.slice(0, -1), [view.agent.items]);
  const rows = height - 1 - (banner ? 1 : 0) - noticeRow;
  // The help (or "too small") covers the screen, which stays mounted: closing it loses nothing.
  const overlay = tooSmall({ width, height }) ? (
    <TooSmall width={width} height={height} />
  ) : help ? (
    <HelpOverlay
      screens={
        screen === 'agent'
          ? ['agent', 'step', 'viewer', 'takeover', 'command', 'field', 'quitLive']
          : screen === 'result'
            ? ['result', 'viewer', 'quitLive']
            : [screen, 'quitLive']
      }
      width={width}
      height={height - 1}
    />
  ) : undefined;
  return (
    <>
      {/*
        The agent's finished transcript items, printed for good above the live frame. One <Static>
        for the app's life: Ink 6.8 keeps a pointer to the last <Static> it saw, and one unmounted
        with its screen (the result replacing the agent's) left it reading freed layout memory, a
        height of 2^65 rows that froze the result screen until memory ran out (Ink issue #904).
      */}
      <Static items={doneItems}>{(item) => <TranscriptItemView key={item.id} item={item} width={width} />}</Static>
      <Covered by={overlay}>
        {banner ? (
          <Text color="yellow" wrap="truncate">
            {banner}
          </Text>
        ) : null}
        {prompt?.kind === 'approve-plan' ? (
          <PlanScreen proposal={prompt.proposal} width={width} height={rows} onDecide={prompt.resolve} />
        ) : screen === 'thm' ? (
          <ThmScreen
            view={view}
            {...(prompt?.kind === 'approve-tests' ? { prompt } : {})}
            width={width}
            height={rows}
            {...(desk
              ? {
                  sourceOf: async (nodeid: string) =>
                    (await import('../engine/python-source/test-source')).testSource(desk.root, nodeid),
                }
              : sourceOf
                ? { sourceOf }
                : {})}
            {...(desk
              ? {
                  writeTests: {
                    newTest: () => controller.newTest(desk),
                    editTest: (nodeid: string) => controller.editTest(desk, nodeid),
                  },
                }
              : {})}
            onTyping={setFiltering}
          />
        ) : screen === 'agent' ? (
          <AgentScreen
            view={view}
            {...(prompt ? { prompt } : {})}
            takeover={takeover}
            {...(state.notice ? { notice: state.notice } : {})}
            width={width}
            height={rows}
            allowAlways={() => controller.allowAlways()}
            onSend={(line) => void controller.send(line)}
            onHandBack={() => controller.handBack()}
            onViewer={setViewerOpen}
            onMessage={(text) => controller.queueMessage(text)}
            queued={state.queued}
            step={state.step}
            onToggleStep={() => controller.toggleStep()}
            editArguments={(args) => controller.editArguments(args)}
            onStepArguments={(args) => controller.setStepArguments(args)}
            onStop={() => controller.stopAgent()}
            onNotice={flash}
          />
        ) : (
          <ResultScreen
            result={result!}
            {...(prompt?.kind === 'accept-patch' ? { prompt } : {})}
            width={width}
            height={rows}
            {...(view.thm.approval ? { selected: view.thm.approval.chosen } : {})}
            {...(view.patch ? { decision: view.patch } : {})}
            {...(sessionsDir ? { sessionsDir } : {})}
            failures={failures}
            {...(view.keptTests ? { keptTests: view.keptTests } : {})}
            {...(view.session?.repo ? { checkout: view.session.repo } : {})}
            submissions={view.agent.submissions}
            session={{ wallMs: sessionWallMs(view), parts: view.clock.parts }}
            {...(view.session ? { sandbox: view.session.sandbox } : {})}
            onQuit={() => setClosed(true)}
            onSave={(file, patch) => controller.savePatch(file, patch)}
          />
        )}
        {noticeRow ? (
          <Text color="yellow" wrap="truncate">
            {state.notice}
          </Text>
        ) : null}
      </Covered>
    </>
  );
}
