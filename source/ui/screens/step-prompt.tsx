import { Box, Text } from 'ink';
import { useState } from 'react';
import { describeTurn, prettyArguments } from '../../engine/agent/preview';
import { plural } from '../../engine/util/plural';
import { pauseCodeLines, sameArguments } from '../components/code-arguments';
import { DimRows, Lines } from '../components/line-view';
import { cap, wrapCode, type Line } from '../components/lines';
import { messageBoxRows, MessageBox } from '../components/message-box';
import type { FieldOpening } from '../components/text-field';
import { ScrollView } from '../components/scroll-view';
import { leadKey, useKeys } from '../components/use-keys';
import type { Prompt } from '../prompt';
import { fitHints, keyLabels } from '../keys';

export type StepPromptKind = Extract<Prompt, { kind: 'step-model' | 'step-tool' }>;

/** How the pause's box is open: kept by the screen, which gives the box its rows accordingly. */
export interface PauseView {
  /** `m`: the message box is open (it has the keys). */
  writing: boolean;
  /** `e` before a model call: what the request adds, in full (it scrolls). */
  expanded: boolean;
  /** The message written so far: the box grows with its lines, and the screen makes room. */
  draft?: string;
}

export const CLOSED_PAUSE: PauseView = { writing: false, expanded: false };

export interface StepPromptProps {
  prompt: StepPromptKind;
  width: number;
  /** Rows it may use, border included (see stepPromptRows). */
  rows: number;
  view: PauseView;
  onView(view: PauseView): void;
  /** Whether the keys are the pause's (not while the developer has the debugger). */
  active: boolean;
  /** `m`: a message for the model's next call. */
  onMessage(text: string): void;
  /** `e` at a tool call: the arguments as the developer left them, or why not. */
  editArguments(args: string): Promise<{ args: string } | { problem: string }>;
  /** The arguments the call runs with on Enter (undefined: the model's). */
  onEdited(args: string | undefined): void;
  /** `s`: step mode off (the agent goes on). */
  toggleStep(): void;
  /** The message box's keys before it listens (see FieldOpening), shared with the screen's handler. */
  boxOpening?: FieldOpening;
}

/** The rows of what is about to happen: the request's last turn (each message's first lines, or all of them), or the tool call and its arguments. */
function bodyLines(prompt: StepPromptKind, width: number, expanded: boolean): Line[] {
  const inner = Math.max(10, width - 4);
  if (prompt.kind === 'step-model') {
    return describeTurn(prompt.preview.lastTurn, expanded ? Infinity : undefined)
      .flatMap((row) => wrapCode(row, inner))
      .map((text) => ({ text, dim: !text.startsWith('  ') }));
  }
  // A submission's code as code (once edited, as a diff against the model's); other calls' arguments as JSON.
  const code = pauseCodeLines(prompt.call.arguments, prompt.edited, inner);
  if (code) return code;
  return prettyArguments(prompt.edited ?? prompt.call.arguments)
    .split('\n')
    .flatMap((row) => wrapCode(row, inner))
    .map((text) => ({ text, color: prompt.edited === undefined ? undefined : 'green' }));
}

/** Whether `e` before a model call shows more: some message of the request was cut to its first lines. */
const clipped = (prompt: StepPromptKind) =>
  prompt.kind === 'step-model' &&
  describeTurn(prompt.preview.lastTurn, Infinity).length > describeTurn(prompt.preview.lastTurn).length;

/**
 * The pause's keys in rows of the box's inner width: a row when the words fit, else shorter words,
 * never a key cut off (`s` was, at 80 columns). Before a model call `e` shows all of what the
 * request adds when some of it is cut, or its first lines again.
 */
function stepHint(prompt: StepPromptKind, view: PauseView, width: number): string[] {
  const [enter, message, edit, off] = keyLabels('step', ['t ? o d']);
  const labels =
    prompt.kind === 'step-tool'
      ? [enter!, message!, edit!, off!]
      : [
          enter!,
          message!,
          ...(clipped(prompt) || view.expanded
            ? [
                {
                  key: 'e',
                  long: view.expanded ? 'first lines only' : 'all of it',
                  short: view.expanded ? 'less' : 'all',
                },
              ]
            : []),
          off!,
        ];
  return fitHints(labels, Math.max(10, width - 4), 1);
}

/** Rows under the title for the body: the border (2), title, status line, and the keys or the message box take the rest. */
const bodyRoom = (rows: number, view: PauseView, hint: readonly string[]) =>
  Math.max(1, rows - 4 - (view.writing ? messageBoxRows(view.draft) : hint.length));

/** Rows the prompt takes in `rows` at most: border, title, body, status line, and the keys (or the message box). */
export function stepPromptRows(prompt: StepPromptKind, width: number, rows: number, view: PauseView): number {
  const body = bodyLines(prompt, width, view.expanded).length;
  const hint = stepHint(prompt, view, width);
  return 4 + (view.writing ? messageBoxRows(view.draft) : hint.length) + Math.min(body, bodyRoom(rows, view, hint));
}

/**
 * Step mode's pause: what the agent is about to do (a model call and what the request adds, or a
 * tool call with its arguments), and the developer's keys — go on, write to the agent first, see
 * the whole request or edit the call's arguments in their editor (then Enter runs it with them),
 * or leave step mode. The screen's own keys (take over, help, viewers) work around it.
 */
export function StepPrompt({
  prompt,
  width,
  rows,
  view,
  onView,
  active,
  onMessage,
  editArguments,
  onEdited,
  toggleStep,
  boxOpening,
}: StepPromptProps) {
  const [status, setStatus] = useState<string | undefined>(undefined);
  const [editing, setEditing] = useState(false);
  const more = clipped(prompt);
  useKeys(
    (char, key) => {
      if (boxOpening?.took(char, key)) return;
      if (key.return) {
        if (prompt.kind === 'step-tool') prompt.resolve(prompt.edited);
        else prompt.resolve();
      } else if (leadKey(char).key === 'm') {
        // What came after `m` in the same chunk (a fast typist): the box opens with it.
        onView({ ...view, writing: true, draft: leadKey(char).rest });
        boxOpening?.open();
      } else if (char === 's') toggleStep();
      else if (char === 'e' && prompt.kind === 'step-model' && (more || view.expanded))
        onView({ ...view, expanded: !view.expanded });
      else if (char === 'e' && prompt.kind === 'step-tool') {
        const before = prompt.edited;
        setEditing(true);
        void editArguments(before ?? prompt.call.arguments).then((outcome) => {
          setEditing(false);
          if ('problem' in outcome)
            setStatus(
              `Not changed: ${outcome.problem}. e edits again, Enter runs the ${before === undefined ? "model's" : 'edited'} arguments.`,
            );
          else if (sameArguments(outcome.args, prompt.call.arguments)) {
            onEdited(undefined);
            setStatus("Unchanged: it runs with the model's arguments.");
          } else {
            onEdited(outcome.args);
            setStatus('Edited: Enter runs it with your arguments (the session records your edit).');
          }
        });
      }
    },
    { isActive: active && !view.writing && !editing },
  );
  const title =
    prompt.kind === 'step-model'
      ? `⏸ step: before model call ${prompt.preview.round} · the request adds:`
      : `⏸ step: before the tool call ${prompt.call.name}${prompt.edited === undefined ? '' : ' (your arguments)'}`;
  const hint = stepHint(prompt, view, width);
  const room = bodyRoom(rows, view, hint);
  const lines = bodyLines(prompt, width, view.expanded);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold color="cyan" wrap="truncate">
        {title}
      </Text>
      {view.expanded && lines.length > room ? (
        <ScrollView lines={lines} height={room} active={active && !view.writing} />
      ) : (
        <Lines lines={cap(lines, room, (n) => ({ text: `… ${plural(n, 'more line')}`, dim: true }))} />
      )}
      <Text color="yellow" wrap="truncate">
        {editing ? 'In your editor…' : (status ?? ' ')}
      </Text>
      {view.writing ? (
        <MessageBox
          title="it goes with the next model call"
          width={width - 4}
          draft={view.draft ?? ''}
          onDraft={(text) => onView({ ...view, writing: true, draft: text })}
          onSend={(text) => {
            onView({ ...view, writing: false, draft: '' });
            onMessage(text);
            if (text.trim()) setStatus('Your message goes with the next model call.');
          }}
          onCancel={() => onView({ ...view, writing: false, draft: '' })}
          opening={boxOpening}
        />
      ) : (
        <DimRows rows={hint} />
      )}
    </Box>
  );
}
