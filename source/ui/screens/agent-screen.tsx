import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { ItemBrowser } from '../components/item-browser';
import { messageBoxRows, MessageBox } from '../components/message-box';
import { FieldOpening } from '../components/text-field';
import { Lines } from '../components/line-view';
import { allocate, wrapText, type Claim, type Line } from '../components/lines';
import { ModelStatus, RetryLine, streamingLines } from '../components/model-status';
import { ScrollView } from '../components/scroll-view';
import { TestGrid } from '../components/test-grid';
import { capItem, itemLines } from '../components/transcript-item';
import type { Prompt, Takeover } from '../prompt';
import { hintRows, KEYS, QUIT_LIVE_HINT } from '../keys';
import type { TranscriptItem, ViewState } from '../view/types';
import { Footer, footerRows } from './agent-footer';
import { Header, HEADER_ROWS } from './agent-header';
import { CancelledPrompt, CommandPrompt, promptRows, StopQuestion } from './agent-prompts';
import { DebuggerPane } from './debugger-pane';
import { CLOSED_PAUSE, StepPrompt, type PauseView } from './step-prompt';
import { TddPanel, tddPanelRows, testFileLines } from './tdd-panel';
import { leadKey, useKeys } from '../components/use-keys';

export interface AgentScreenProps {
  view: ViewState;
  prompt?: Prompt;
  takeover: Takeover;
  notice?: string;
  width: number;
  /** Rows the live part may use: Ink clears the whole terminal once it is as tall as the window. */
  height: number;
  allowAlways(): void;
  onSend(line: string): void;
  /** Esc on an empty pdb line in a takeover. */
  onHandBack?(): void;
  /**
   * `replay`: stepping back must take lines away, so the earlier items that fit are drawn in the
   * live part, above the latest; no prompts. Live, LiveApp's one <Static> prints them for good.
   */
  mode?: 'live' | 'replay';
  /** A viewer (earlier outputs, the test file) or the message box opened or closed: its keys are not the screen's. */
  onViewer?(open: boolean): void;
  /** `m`: a message for the agent's next model call (absent: no box, e.g. in a replay). */
  onMessage?(text: string): void;
  /** Messages waiting for the next model call. */
  queued?: number;
  /** Step mode is on; `s` toggles it (absent: no step mode, e.g. in a replay). */
  step?: boolean;
  onToggleStep?(): void;
  /** `e` at a step before a tool call: its arguments in the developer's editor. */
  editArguments?(args: string): Promise<{ args: string } | { problem: string }>;
  /** The arguments the paused tool call runs with (undefined: the model's). */
  onStepArguments?(args: string | undefined): void;
  /** `x` then `y`: stop the agent and evaluate what it has (absent: nothing to stop, e.g. in a replay). */
  onStop?(): void;
  /** A short word for a key that has nothing to do here (shown for a few seconds). */
  onNotice?(text: string): void;
}

type Viewer = 'items' | 'test-file' | undefined;

/** What a tool call held at a step pause is doing. */
const PAUSED = '⏸ waits for you: Enter runs it';

/** A tool call held at a step pause, as it will run: with the developer's arguments once they edited them. */
function pausedCall(item: Extract<TranscriptItem, { kind: 'tool' }>, edited: string | undefined): TranscriptItem {
  return edited === undefined ? item : { ...item, args: edited, edited: { original: item.args } };
}

/** The rows of the earlier items that fit in `rows`, newest last (a replay's transcript). */
function historyLines(items: readonly TranscriptItem[], width: number, rows: number): Line[] {
  const blocks: Line[][] = [];
  let left = rows;
  for (let i = items.length - 1; i >= 0 && left >= 2; i--) {
    const lines = itemLines(items[i]!, width);
    const block = lines.length <= left ? lines : capItem(lines, left);
    blocks.unshift(block);
    left -= block.length;
  }
  return blocks.flat();
}

/**
 * The agent at work: the latest transcript item and the streaming model text (the live app prints
 * the finished ones above, for good), the tests, the debugger pane, and a footer with the
 * running cost. The live part is measured to stay shorter than the terminal: each part gets rows
 * by priority (a prompt first, then the latest output, the model text, the tests, the debugger).
 */
export function AgentScreen({
  view,
  prompt,
  takeover,
  notice,
  width,
  height,
  allowAlways,
  onSend,
  onHandBack = () => undefined,
  mode = 'live',
  onViewer,
  onMessage,
  queued = 0,
  step = false,
  onToggleStep,
  editArguments,
  onStepArguments,
  onStop,
  onNotice,
}: AgentScreenProps) {
  const [expanded, setExpanded] = useState(false);
  const [writing, setWriting] = useState(false);
  const [draft, setDraft] = useState('');
  const [showDebugger, setShowDebugger] = useState(true);
  const [viewer, setViewer] = useState<Viewer>(undefined);
  // A step pause's box (message box, the request in full), per pause: it sizes the box's claim.
  const [pause, setPause] = useState<PauseView>(CLOSED_PAUSE);
  // The reason for a denied command is being typed: its keys are the field's.
  const [typingReason, setTypingReason] = useState(false);
  // `x`: the question whether to stop the agent is open (it has the keys).
  const [stopAsk, setStopAsk] = useState(false);
  const stepPause = prompt?.kind === 'step-model' || prompt?.kind === 'step-tool';
  // Each pause opens closed, and in front of a viewer (which the developer may open from it).
  useEffect(() => {
    setPause(CLOSED_PAUSE);
    if (stepPause) setViewer(undefined);
  }, [prompt?.resolve]);
  // A question of the engine (a shell command, a cancelled call) has its own stop key: the screen's
  // question gives way to it, so that no key answers both.
  const engineAsks = !!prompt && !stepPause;
  useEffect(() => {
    if (engineAsks || mode === 'replay') setStopAsk(false);
  }, [engineAsks, mode]);
  const testFile = view.agent.tdd?.testFile;
  // A message only reaches a model that is still to be asked.
  const atWork =
    mode === 'live' && view.agent.phase !== 'done' && view.agent.phase !== 'evaluate' && view.agent.phase !== 'quality';
  // A question of the engine (or a takeover) takes the screen back from a viewer; a step pause
  // only waits for the developer, who may look at earlier outputs first.
  const shown: Viewer = (prompt && !stepPause) || takeover !== 'off' ? undefined : viewer;
  // A question of the engine (or a takeover) takes the keys: the box gives way, and comes back
  // with what was typed once it is answered.
  const boxOpen = writing && !!onMessage && !prompt && takeover === 'off';
  const typing = boxOpen || (stepPause && pause.writing) || typingReason || stopAsk;
  useEffect(() => onViewer?.(shown !== undefined || typing), [shown, typing, onViewer]);
  // Keys typed right after `m`, before the box listens, are the message's (not `s`, `x`, `o`…).
  const [boxOpening] = useState(() => new FieldOpening());
  useKeys(
    (char, key) => {
      // At a step pause the pause's own handler (it sees each key first) opens the box and keeps them.
      if (stepPause ? boxOpening.keeping : boxOpening.took(char, key)) return;
      if (shown) {
        if (shown === 'test-file' && (key.escape || char === 'v' || char === 'q')) setViewer(undefined);
        return;
      }
      // At a step pause `m`, `s` and `e` are the pause's (write first, leave step mode, the request in full or the call's arguments).
      if (stepPause && (leadKey(char).key === 'm' || char === 's' || char === 'e')) return;
      if (char === 'e') {
        // Nothing more to show (model text, a diff: whole already): say so rather than do nothing.
        const latest = items.at(-1);
        const more =
          !!latest && itemLines(latest, width, 'expanded').length !== itemLines(latest, width, 'collapsed').length;
        if (more || expanded) setExpanded((e) => !e);
        else onNotice?.('e expands the latest output when it is cut; this one is whole (o opens any earlier output)');
      } else if (leadKey(char).key === 'm' && onMessage && atWork) {
        // `m` and the message typed fast come as one chunk: the box opens with the rest in it.
        const { rest } = leadKey(char);
        if (rest) setDraft((d) => d + rest);
        setWriting(true);
        // Only a box drawn now takes them (a takeover on its way keeps the box for later).
        if (takeover === 'off') boxOpening.open();
      } else if (char === 's' && onToggleStep && atWork) onToggleStep();
      else if (char === 'x' && onStop && atWork) setStopAsk(true);
      else if (char === 'd') setShowDebugger((d) => !d);
      else if (char === 'o') setViewer('items');
      else if (char === 'v' && testFile) setViewer('test-file');
      else if (char === 'v')
        onNotice?.("v shows the agent's test file, which TDD sessions have: this one has none yet");
    },
    { isActive: takeover !== 'active' && (!prompt || stepPause) && !typing },
  );

  const items = view.agent.items;
  const replay = mode === 'replay';
  const current = items.at(-1);
  // `v` only means something once the agent has written tests (TDD strategies).
  // At a step pause its box names m, s and e, and there is no call for Esc to cancel.
  // A question of the engine (a shell command to approve, a cancelled call) has the keys, which its
  // box names: the screen's do nothing until it is answered, so the footer offers none of them.
  const asking = !!prompt && !stepPause;
  // Not at work (evaluating): nothing to take over, cancel or stop.
  const skip = asking
    ? KEYS.agent.map(([key]) => key)
    : [
        ...(testFile ? [] : ['v']),
        ...(onMessage && atWork && !stepPause ? [] : ['m']),
        ...(onToggleStep && atWork && !stepPause ? [] : ['s']),
        ...(stepPause ? ['e', 'Esc'] : []),
        ...(onStop && atWork ? [] : ['x']),
        ...(atWork ? [] : ['t', 'Esc']),
      ];
  // The pdb line takes every character, `?` too: its keys are all there is to name.
  const keys =
    takeover === 'active'
      ? hintRows('takeover', width, 1, [], [], false)
      : hintRows('agent', width, 1, [QUIT_LIVE_HINT], skip);
  const body =
    height - HEADER_ROWS - (replay ? 2 : footerRows(keys.length, takeover)) - (boxOpen ? messageBoxRows(draft) : 0);

  if (shown) {
    return (
      <Box flexDirection="column">
        <Header view={view} width={width} clock={replay ? 'recorded' : 'wall'} />
        {shown === 'items' ? (
          <ItemBrowser items={items} width={width} height={Math.max(3, body)} onClose={() => setViewer(undefined)} />
        ) : (
          <ScrollView
            title={`${testFile!.path} · version ${testFile!.versions}`}
            lines={testFileLines(testFile!.code, width)}
            height={Math.max(3, body)}
            hint="Esc or v closes"
          />
        )}
      </Box>
    );
  }

  const debuggerOpen = takeover !== 'off' || (showDebugger && view.debugger.lines.length > 0);
  // The call a step pause holds: with the arguments it will run with (the developer's, once edited), waiting.
  const held = prompt?.kind === 'step-tool' && current?.kind === 'tool' && current.callId === prompt.call.id;
  const currentLines = !current
    ? []
    : held
      ? itemLines(pausedCall(current, prompt.edited), width, expanded ? 'expanded' : 'collapsed', PAUSED)
      : itemLines(current, width, expanded ? 'expanded' : 'collapsed');
  // The answer streaming in: its text, then the tool calls it is writing (their code growing).
  const live = [
    ...(view.agent.live ? wrapText(view.agent.live, width).map((text): Line => ({ text })) : []),
    ...streamingLines(view.agent.streaming, width),
  ];
  // A cancelled call waits for the developer's answer: it is not running.
  const calling = !!view.agent.call && prompt?.kind !== 'cancelled-call';
  const tests = Object.keys(view.agent.tests).length;
  const tdd = view.agent.tdd;
  const debuggerWant = 3 + Math.min(12, Math.max(3, view.debugger.lines.length)) + (takeover === 'active' ? 1 : 0);
  const none: Claim = { min: 0, want: 0 };
  const claims: Record<string, Claim> = {
    stop: stopAsk ? { min: 3, want: 3 } : none,
    prompt: { min: promptRows(prompt, width, body, pause), want: promptRows(prompt, width, body, pause) },
    takeover: takeover !== 'off' ? { min: 5, want: debuggerWant } : none,
    current: current ? { min: 2, want: currentLines.length } : none,
    retry: view.agent.retry ? { min: 1, want: 1 } : none,
    live: live.length
      ? {
          min: 2,
          want: 1 + Math.min(live.length, Math.max(3, Math.floor(height / (view.agent.streaming.length ? 3 : 4)))),
        }
      : calling
        ? { min: 1, want: 1 }
        : none,
    tests: tests ? { min: 3, want: 2 + tests } : none,
    tdd: tdd ? { min: 2, want: tddPanelRows(tdd) } : none,
    debugger:
      debuggerOpen && takeover === 'off' ? { min: 5, want: Math.min(debuggerWant, 3 + Math.floor(height / 3)) } : none,
  };
  const names = Object.keys(claims);
  const given = Object.fromEntries(allocate(body, Object.values(claims)).map((rows, i) => [names[i]!, rows]));
  const history =
    replay && current
      ? historyLines(items.slice(0, -1), width, body - Object.values(given).reduce((a, b) => a + b, 0))
      : [];
  const debuggerRows = given.takeover || given.debugger || 0;
  return (
    <Box flexDirection="column">
      <Header view={view} width={width} clock={replay ? 'recorded' : 'wall'} />
      <Lines lines={history} />
      {given.current ? <Lines lines={capItem(currentLines, given.current)} /> : null}
      {given.retry ? <RetryLine view={view} clock={replay ? 'recorded' : 'wall'} /> : null}
      {given.live ? (
        <Box flexDirection="column">
          {calling ? (
            <ModelStatus view={view} clock={replay ? 'recorded' : 'wall'} />
          ) : (
            <Text color="magenta">model…</Text>
          )}
          {given.live > 1 ? <Lines lines={live.slice(-(given.live - 1))} /> : null}
        </Box>
      ) : null}
      {given.tests ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>selected tests</Text>
          <TestGrid outcomes={view.agent.tests} width={width} max={given.tests - 2} />
        </Box>
      ) : null}
      {given.tdd && tdd ? <TddPanel tdd={tdd} width={width} rows={given.tdd} /> : null}
      {debuggerRows ? (
        <DebuggerPane
          view={view}
          takeover={takeover}
          width={width}
          rows={debuggerRows}
          onSend={onSend}
          onHandBack={onHandBack}
          clock={replay ? 'recorded' : 'wall'}
        />
      ) : null}
      {prompt?.kind === 'approve-command' ? (
        <CommandPrompt prompt={{ ...prompt, allowAlways }} width={width} rows={body} onTyping={setTypingReason} />
      ) : null}
      {prompt?.kind === 'cancelled-call' ? <CancelledPrompt prompt={prompt} width={width} /> : null}
      {(prompt?.kind === 'step-model' || prompt?.kind === 'step-tool') && given.prompt ? (
        <StepPrompt
          prompt={prompt}
          width={width}
          rows={given.prompt}
          view={pause}
          onView={setPause}
          active={takeover === 'off'}
          onMessage={(text) => onMessage?.(text)}
          editArguments={editArguments ?? (async () => ({ problem: 'no editor here' }))}
          onEdited={(args) => onStepArguments?.(args)}
          toggleStep={() => onToggleStep?.()}
          boxOpening={boxOpening}
        />
      ) : null}
      {/* Drawn even when the rows ran out: it has the keys, and a question no one sees would hold them. */}
      {stopAsk && !engineAsks ? (
        <Box borderStyle="round" borderColor="red" paddingX={1}>
          <StopQuestion
            onStop={() => {
              setStopAsk(false);
              onStop?.();
            }}
            onCancel={() => setStopAsk(false)}
          />
        </Box>
      ) : null}
      {boxOpen ? (
        <MessageBox
          title="it goes with the agent's next model call"
          width={width}
          draft={draft}
          onDraft={setDraft}
          opening={boxOpening}
          onSend={(text) => {
            setWriting(false);
            setDraft('');
            onMessage!(text);
          }}
          onCancel={() => {
            setWriting(false);
            setDraft('');
          }}
        />
      ) : null}
      {replay ? (
        <Footer view={view} takeover="off" keys={[]} />
      ) : (
        <Footer
          view={view}
          takeover={takeover}
          {...(notice ? { notice } : {})}
          keys={keys}
          queued={queued}
          step={step}
        />
      )}
    </Box>
  );
}
